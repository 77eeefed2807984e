import type { ConnectorCatalog } from '../catalog/index.js';
import { catalogForService } from '../catalog/service-catalog.js';
import {
  ConnectorClient,
  completeConnectionConfig,
  parseDurationMs,
  readConnectionConfig,
  runRetryPolicy,
  type ConnectionFlags,
} from '../client/index.js';
import { loadRecipe, resolveInputs } from '../compile/index.js';
import type { Plan } from '../compile/plan.js';
import { RecipeError, type Diagnostic } from '../errors/index.js';
import type { JournalStore } from '../journal/index.js';
import { beginRun } from './journal-session.js';
import type { RunReport } from '../frame/report.js';
import { runPlan, type DurableRun, type RunOptions } from './run-plan.js';
import { maskProjectSecrets, projectRootOf } from './project-secrets.js';

/**
 * The one way to start a run. Every entry point (`recipe run`, `recipe resume`, `run --run-id`, `recipe
 * test`, `recipe submit`, the fleet worker, the library's runRecipe) first checks the recipe with
 * checkRecipe — every check `recipe validate` applies, connector calls against the catalog of the service the
 * run talks to — and can run only what passed: startRun takes a CheckedRecipe, which nothing else makes.
 * So a recipe that validate refuses sends nothing, whichever way it is started.
 */

declare const checked: unique symbol;

/** A recipe that passed every check of `recipe validate` (made only by checkRecipe). */
export interface CheckedRecipe {
  readonly plan: Plan;
  /** Its warnings (W codes): the entry point prints them once, at the start. */
  readonly warnings: readonly Diagnostic[];
  /** The catalog its connector calls were checked against; undefined when the service publishes none. */
  readonly catalog: ConnectorCatalog | undefined;
  readonly [checked]: true;
}

/** How checkRecipe checks: against which catalog, and whether warnings are fatal (--strict). */
export interface CheckOptions {
  readonly catalog?: ConnectorCatalog;
  readonly strict?: boolean;
  /** The name diagnostics and plan locations use for the file. */
  readonly displayName?: string;
}

/** A checked recipe, or every problem that stops it (with `strict`, its warnings too). */
export type CheckResult =
  | { readonly recipe: CheckedRecipe; readonly diagnostics: [] }
  | { readonly recipe?: undefined; readonly diagnostics: Diagnostic[] };

/** Loads a recipe and applies every check of `recipe validate` (connector calls against `catalog` when given). */
export async function checkRecipe(file: string, options: CheckOptions = {}): Promise<CheckResult> {
  const { plan, diagnostics, warnings } = await loadRecipe(file, {
    ...(options.catalog ? { catalog: options.catalog } : {}),
    ...(options.displayName !== undefined ? { displayName: options.displayName } : {}),
  });
  if (!plan) return { diagnostics };
  if (options.strict === true && warnings.length > 0) return { diagnostics: warnings };
  const recipe = { plan, warnings, catalog: options.catalog } as Omit<CheckedRecipe, typeof checked>;
  return { recipe: recipe as CheckedRecipe, diagnostics: [] };
}

/** A checked recipe with its inputs resolved, or the diagnostics of whichever is invalid (nothing runs). */
export type Runnable =
  | {
      readonly recipe: CheckedRecipe;
      readonly plan: Plan;
      readonly inputs: Readonly<Record<string, unknown>>;
      readonly diagnostics: [];
    }
  | {
      readonly recipe?: undefined;
      readonly plan?: undefined;
      readonly inputs?: undefined;
      readonly diagnostics: Diagnostic[];
      readonly invalid: 'recipe' | 'inputs';
    };

/** Checks a recipe (checkRecipe) and resolves the given inputs against it (strings coerced to the declared types). */
export async function loadRunnable(
  file: string,
  given: Readonly<Record<string, unknown>> = {},
  options: CheckOptions = {},
): Promise<Runnable> {
  const { recipe, diagnostics } = await checkRecipe(file, options);
  if (!recipe) return { diagnostics, invalid: 'recipe' };
  const inputs = resolveInputs(recipe.plan, { ...given });
  if (inputs.diagnostics.length > 0) return { diagnostics: inputs.diagnostics, invalid: 'inputs' };
  return { recipe, plan: recipe.plan, inputs: inputs.values, diagnostics: [] };
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
  /** Warnings (W codes) stop the run before anything is sent, as `recipe validate --strict` fails. */
  readonly strict?: boolean;
  /**
   * Who started the run when it was not a person at a terminal, journaled in the run's options as `origin`
   * (plain data: {kind: 'trigger', trigger, delivery_id} or {kind: 'mcp', caller}); `recipe runs show` shows it.
   */
  readonly origin?: Readonly<Record<string, unknown>>;
  /**
   * The folder whose recipes' declared secrets this run masks by value too (src/run/project-secrets.ts);
   * default the recipe's project (the nearest folder with .recipe/, .git or recipe.lock, else the working
   * directory when the recipe is inside it, else the recipe's folder).
   */
  readonly projectDir?: string;
}

/** Options of startRun: runRecipe's, with inputs already resolved, and an optional preparation (a resume). */
export interface StartRunOptions extends Omit<RunRecipeOptions, 'inputs' | 'strict'> {
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
 * Loads, checks and runs a recipe file against a connector service (the library's entry point). Connector
 * calls are checked against `catalog`, else against the catalog the service publishes (not cached: the
 * library writes no files it was not asked to). Without `client`, one is made from `connection` and the
 * environment (a missing URL or credentials throws C001) and closed at the end. Warnings go to `log`.
 */
export async function runRecipe(file: string, options: RunRecipeOptions = {}): Promise<RunRecipeResult> {
  const env = options.env ?? process.env;
  const url = options.client ? options.client.baseUrl : readConnectionConfig(options.connection ?? {}, env).baseUrl;
  const note = (message: string): void => options.log?.('warn', message);
  const catalog = options.catalog ?? (url === undefined ? undefined : await catalogForService(url, undefined, note));
  const runnable = await loadRunnable(file, options.inputs, {
    ...(catalog ? { catalog } : {}),
    ...(options.strict !== undefined ? { strict: options.strict } : {}),
  });
  if (!runnable.recipe) return { diagnostics: runnable.diagnostics };
  for (const w of runnable.recipe.warnings) note(`${w.code} ${w.message}`);
  return { report: await startRun(runnable.recipe, { ...options, inputs: runnable.inputs }), diagnostics: [] };
}

/**
 * Runs a checked recipe: makes the client unless one is given (and closes it at the end), prepares the run
 * (a new one, journaled when asked, or what `prepare` says), runs. Writes of a dry run are checked against
 * the catalog the recipe was checked with.
 */
export async function startRun(recipe: CheckedRecipe, options: StartRunOptions): Promise<RunReport> {
  const plan = recipe.plan;
  const env = options.env ?? process.env;
  const own = options.client === undefined;
  const retryForMs = options.retryForMs ?? retryForFromEnv(env);
  const client =
    options.client ??
    new ConnectorClient({
      ...completeConnectionConfig(readConnectionConfig(options.connection ?? {}, env)),
      // The token exchange and the lookups a run makes wait out an outage as its steps do.
      retry: runRetryPolicy(undefined, retryForMs),
    });
  const catalog = options.catalog ?? recipe.catalog;
  // The catalog was read from the service's OpenAPI document: a journaled run need not fetch it again.
  if (catalog?.idempotencyKeys !== undefined) client.knowIdempotencyKeys(catalog.idempotencyKeys);
  const redactor = options.redactor ?? client.redactor;
  // Before anything is journaled or reported: the secrets of every recipe of the project, not only this one's.
  const project = maskProjectSecrets(redactor, env, options.projectDir ?? projectRootOf(plan.file, options.cwd));
  if (project.truncated)
    options.log?.(
      'warn',
      `secrets masked by value: ${project.root} holds more files than are read; secrets declared only past them are not masked in this run (docs/running.md#secrets-of-the-project)`,
    );
  try {
    const prepared = options.prepare ? await options.prepare(client, env) : await newRun(plan, client, env, options);
    // Every other option (clock, signal, logs, guardrails...) goes to runPlan as given.
    return await runPlan(plan, {
      ...options,
      client,
      redactor,
      env,
      inputs: prepared.inputs,
      dryRun: prepared.dryRun,
      ...(catalog ? { catalog } : {}),
      connectorId: prepared.connectorId,
      durable: prepared.durable,
      ...(retryForMs !== undefined ? { retryForMs } : {}),
    });
  } finally {
    if (own) await client.close();
  }
}

/** RECIPE_RETRY_FOR: the run's default max_duration when no flag gave one (a worker's, a CI job's). */
function retryForFromEnv(env: Readonly<Record<string, string | undefined>>): number | undefined {
  const text = env.RECIPE_RETRY_FOR;
  if (text === undefined || text === '') return undefined;
  const ms = parseDurationMs(text);
  if (ms === undefined) throw new RecipeError('C014', { what: 'RECIPE_RETRY_FOR', value: text });
  return ms;
}

/** A new run: journaled (attempt 1) in `options.journal` when given, unless `options.durable` is already set up. */
async function newRun(
  plan: Plan,
  client: ConnectorClient,
  env: Readonly<Record<string, string | undefined>>,
  options: StartRunOptions,
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
          ...(options.origin !== undefined ? { origin: options.origin } : {}),
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
