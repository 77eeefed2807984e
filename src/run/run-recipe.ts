import type { ConnectorCatalog } from '../catalog/index.js';
import {
  ConnectorClient,
  completeConnectionConfig,
  readConnectionConfig,
  type ConnectionFlags,
} from '../client/index.js';
import { loadRecipe, resolveInputs } from '../compile/index.js';
import type { Plan } from '../compile/plan.js';
import type { Diagnostic } from '../errors/index.js';
import type { JournalStore } from '../journal/index.js';
import { beginRun } from './journal-session.js';
import type { RunReport } from '../frame/report.js';
import { runPlan, type DurableRun, type RunOptions } from './run-plan.js';

/**
 * The one run orchestration: file → plan and inputs (loadRunnable), then client → journal → runPlan → close
 * (runLoaded). runRecipe is both; `recipe run` and `recipe resume` are thin edges over the two, adding only
 * what belongs to a command line (flags, .env, the embedded service, Ctrl-C, printing).
 */

/** A recipe file compiled with its inputs resolved, or the diagnostics of whichever is invalid (nothing runs). */
export type Runnable =
  | { readonly plan: Plan; readonly inputs: Readonly<Record<string, unknown>>; readonly diagnostics: [] }
  | {
      readonly plan?: undefined;
      readonly inputs?: undefined;
      readonly diagnostics: Diagnostic[];
      readonly invalid: 'recipe' | 'inputs';
    };

/** Loads a recipe and resolves the given inputs against it (strings coerced to the declared types). */
export async function loadRunnable(file: string, given: Readonly<Record<string, unknown>> = {}): Promise<Runnable> {
  const { plan, diagnostics } = await loadRecipe(file);
  if (!plan) return { diagnostics, invalid: 'recipe' };
  const inputs = resolveInputs(plan, { ...given });
  if (inputs.diagnostics.length > 0) return { diagnostics: inputs.diagnostics, invalid: 'inputs' };
  return { plan, inputs: inputs.values, diagnostics: [] };
}

/** What a run starts with once its client exists: inputs, options, and its journal when it has one. */
export interface PreparedRun {
  readonly inputs: Readonly<Record<string, unknown>>;
  readonly dryRun: boolean;
  readonly connectorId?: string;
  readonly durable?: DurableRun;
}

/** Options of runRecipe: a client, or where to find the service (flags, then CONNECTOR_* environment variables). */
export interface RunRecipeOptions extends Omit<RunOptions, 'client' | 'inputs'> {
  readonly client?: ConnectorClient;
  readonly connection?: ConnectionFlags;
  /** Input values; strings are coerced to the declared types as on the command line. */
  readonly inputs?: Readonly<Record<string, unknown>>;
  /** Journals the run as a new run in this store (beginRun; `runId` names it), so it can be resumed. */
  readonly journal?: JournalStore;
  /** With dryRun and no `catalog`: asked once for the catalog writes are checked against (none: unchecked). */
  readonly dryRunCatalog?: () => Promise<ConnectorCatalog | undefined>;
}

/** Options of runLoaded: runRecipe's, with inputs already resolved, and an optional preparation (a resume). */
export interface RunLoadedOptions extends Omit<RunRecipeOptions, 'inputs'> {
  readonly inputs?: Readonly<Record<string, unknown>>;
  /**
   * Sets the run up once the client exists, before anything is sent (a resume: resumeRun). Default: a new
   * run with `inputs`, `dryRun` and `connectorId`, journaled in `journal` when given.
   */
  readonly prepare?: (
    client: ConnectorClient,
    env: Readonly<Record<string, string | undefined>>,
  ) => Promise<PreparedRun>;
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
  const runnable = await loadRunnable(file, options.inputs);
  if (!runnable.plan) return { diagnostics: runnable.diagnostics };
  return { report: await runLoaded(runnable.plan, { ...options, inputs: runnable.inputs }), diagnostics: [] };
}

/**
 * Runs a loaded plan: makes the client unless one is given (and closes it at the end), prepares the run (a
 * new one, journaled when asked, or what `prepare` says), fetches the dry-run catalog when needed, runs.
 */
export async function runLoaded(plan: Plan, options: RunLoadedOptions): Promise<RunReport> {
  const env = options.env ?? process.env;
  const own = options.client === undefined;
  const client =
    options.client ??
    new ConnectorClient(completeConnectionConfig(readConnectionConfig(options.connection ?? {}, env)));
  const redactor = options.redactor ?? client.redactor;
  try {
    const prepared = options.prepare ? await options.prepare(client, env) : await newRun(plan, client, env, options);
    const catalog =
      options.catalog ?? (prepared.dryRun && options.dryRunCatalog ? await options.dryRunCatalog() : undefined);
    // Every other option (clock, signal, logs, guardrails...) goes to runPlan as given.
    return await runPlan(plan, {
      ...options,
      client,
      redactor,
      env,
      inputs: prepared.inputs,
      dryRun: prepared.dryRun,
      catalog,
      connectorId: prepared.connectorId,
      durable: prepared.durable,
    });
  } finally {
    if (own) await client.close();
  }
}

/** A new run: journaled (attempt 1) in `options.journal` when given, unless `options.durable` is already set up. */
async function newRun(
  plan: Plan,
  client: ConnectorClient,
  env: Readonly<Record<string, string | undefined>>,
  options: RunLoadedOptions,
): Promise<PreparedRun> {
  const inputs = options.inputs ?? {};
  const dryRun = options.dryRun === true;
  const durable =
    options.durable ??
    (options.journal
      ? await beginRun({
          store: options.journal,
          plan,
          inputs,
          ...(options.runId !== undefined ? { runId: options.runId } : {}),
          dryRun,
          ...(options.connectorId !== undefined ? { connectorId: options.connectorId } : {}),
          redactor: options.redactor ?? client.redactor,
          env,
          // The journal records the run's clock from this same source, so --now pins both.
          ...(options.now ? { now: options.now } : {}),
          ...(options.random ? { random: options.random } : {}),
        })
      : undefined);
  return {
    inputs,
    dryRun,
    ...(options.connectorId !== undefined ? { connectorId: options.connectorId } : {}),
    ...(durable ? { durable } : {}),
  };
}
