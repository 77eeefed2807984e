import {
  ConnectorClient,
  completeConnectionConfig,
  readConnectionConfig,
  type ConnectionFlags,
} from '../client/index.js';
import { loadRecipe, resolveInputs } from '../compile/index.js';
import type { Diagnostic } from '../errors/index.js';
import type { RunReport } from './report.js';
import { runPlan, type RunOptions } from './run-plan.js';

/** Options of runRecipe: a client, or where to find the service (flags, then CONNECTOR_* environment variables). */
export interface RunRecipeOptions extends Omit<RunOptions, 'client' | 'inputs'> {
  readonly client?: ConnectorClient;
  readonly connection?: ConnectionFlags;
  /** Input values; strings are coerced to the declared types as on the command line. */
  readonly inputs?: Readonly<Record<string, unknown>>;
}

/** The report of a run, or the diagnostics when the recipe or its inputs are invalid (nothing ran). */
export type RunRecipeResult =
  | { readonly report: RunReport; readonly diagnostics: [] }
  | { readonly report?: undefined; readonly diagnostics: Diagnostic[] };

/**
 * Loads, checks and runs a recipe file against a connector service. Without `client`, one is made from
 * `connection` and the environment (a missing URL or credentials throws C001) and closed at the end.
 */
export async function runRecipe(file: string, options: RunRecipeOptions = {}): Promise<RunRecipeResult> {
  const { plan, diagnostics } = await loadRecipe(file);
  if (!plan) return { diagnostics };
  const inputs = resolveInputs(plan, { ...(options.inputs ?? {}) });
  if (inputs.diagnostics.length > 0) return { diagnostics: inputs.diagnostics };
  const own = options.client === undefined;
  const client =
    options.client ??
    new ConnectorClient(
      completeConnectionConfig(readConnectionConfig(options.connection ?? {}, options.env ?? process.env)),
    );
  try {
    const report = await runPlan(plan, {
      ...options,
      client,
      redactor: options.redactor ?? client.redactor,
      inputs: inputs.values,
    });
    return { report, diagnostics: [] };
  } finally {
    if (own) await client.close();
  }
}
