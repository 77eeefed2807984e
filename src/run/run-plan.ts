import type { ConnectorCatalog } from '../catalog/index.js';
import type { Redactor } from '../client/index.js';
import { abortableSleep, Redactor as RedactorClass } from '../client/index.js';
import type { ConnectorRef, Plan } from '../compile/plan.js';
import { RecipeError } from '../errors/index.js';
import type { ConnectorApi, LogLevel, RunContext, RunEvent } from './context.js';
import { DryRunLog } from './dry-run.js';
import type { Exec } from './exec.js';
import { writeFileAtomic } from './files.js';
import { runSteps } from './interpret.js';
import { evaluateOutputs, readSecrets } from './plan-scope.js';
import { Tracker, type ReportedError, type RunReport } from './report.js';
import { Scope } from './scope.js';

/** How to run a plan. Only `client` and `inputs` are required; the rest default to the real world. */
export interface RunOptions {
  readonly client: ConnectorApi;
  /** Input values, already validated and coerced (see resolveInputs in compile/). */
  readonly inputs: Readonly<Record<string, unknown>>;
  /** Masks secrets everywhere; pass the client's so tokens and the client secret are masked too. */
  readonly redactor?: Redactor;
  /** Where $secrets come from (default process.env); only declared names are read. */
  readonly env?: Readonly<Record<string, string | undefined>>;
  readonly dryRun?: boolean;
  /** With dryRun: the connector catalog each write is checked against (its computed params, before nothing is sent). */
  readonly catalog?: ConnectorCatalog;
  readonly signal?: AbortSignal;
  /** A connector id that replaces the recipe's default connector (--connector). */
  readonly connectorId?: string;
  /** Caps every paginate step's pages (its max_pages still applies when lower). */
  readonly maxPages?: number;
  /** The most requests the whole run may send (X014 beyond). */
  readonly maxRequests?: number;
  readonly cwd?: string;
  readonly now?: () => number;
  readonly random?: () => number;
  readonly sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  readonly writeFile?: (path: string, bytes: Buffer) => Promise<void>;
  readonly log?: (level: LogLevel, message: string) => void;
  readonly onEvent?: (event: RunEvent) => void;
}

/**
 * Runs a compiled plan to the end and reports. A failing run does not throw: the report says
 * status failed (or interrupted) with the error, its code and location; outputs and messages are redacted.
 */
export async function runPlan(plan: Plan, options: RunOptions): Promise<RunReport> {
  const signal = options.signal ?? new AbortController().signal;
  const redactor = options.redactor ?? new RedactorClass();
  const ctx: RunContext = {
    client: options.client,
    now: options.now ?? Date.now,
    random: options.random ?? Math.random,
    sleep: options.sleep ?? abortableSleep,
    signal,
    redactor,
    dryRun: options.dryRun ?? false,
    ...(options.maxPages !== undefined ? { maxPages: options.maxPages } : {}),
    ...(options.maxRequests !== undefined ? { maxRequests: options.maxRequests } : {}),
    env: options.env ?? process.env,
    cwd: options.cwd ?? process.cwd(),
    writeFile: options.writeFile ?? writeFileAtomic,
    log: (level, message) => options.log?.(level, redactor.redact(message)),
    ...(options.onEvent ? { onEvent: options.onEvent } : {}),
  };
  const tracker = new Tracker((e) => ctx.onEvent?.(e));
  tracker.register(plan.steps, 0, plan.file);
  const dryRun = new DryRunLog(options.catalog);
  const started = ctx.now();
  const defaultConnector: ConnectorRef | undefined = options.connectorId
    ? {
        kind: 'id',
        id: { kind: 'literal', value: options.connectorId },
        loc: { file: plan.file, line: 1, column: 1, pointer: '' },
      }
    : plan.connector;
  const run = {
    id: runId(ctx.random),
    recipe: plan.name,
    started_at: new Date(started).toISOString(),
    dry_run: ctx.dryRun,
  };
  const exec: Exec = {
    ctx,
    plan,
    defaultConnector,
    tracker,
    dryRun,
    chain: [],
    depth: 0,
    signal,
    run,
    actionCatalog: new Map(),
    httpAllow: plan.http ? [plan.http.allow] : [],
  };

  let outputs: Record<string, unknown> = {};
  let error: RecipeError | undefined;
  try {
    const root = new Scope();
    root.set('inputs', { ...options.inputs });
    root.set('secrets', readSecrets(plan, ctx));
    root.set('run', run);
    await runSteps(plan.steps, root, exec);
    outputs = await evaluateOutputs(plan, root);
    const invalid = dryRun.invalid;
    const first = invalid[0];
    if (first) {
      // A dry-run exists to say whether the writes would go through: one the service would refuse fails it.
      const total = dryRun.writes.length;
      error = new RecipeError(
        'X017',
        { invalid: invalid.length, total, s: total === 1 ? '' : 's' },
        { file: first.file, line: first.line, column: first.column },
      );
    }
  } catch (err) {
    error =
      err instanceof RecipeError ? err : new RecipeError('X001', { message: String((err as Error)?.message ?? err) });
    // Whatever the step saw (a cancelled request, a failed sleep), a run stopped by its signal is interrupted.
    if (signal.aborted && error.code !== 'X009') error = new RecipeError('X009', {}, error.location, { cause: error });
  }
  const status = !error ? 'ok' : error.class === 'interrupted' ? 'interrupted' : 'failed';
  return redactor.redactValue({
    status,
    recipe: plan.name,
    file: plan.file,
    dry_run: ctx.dryRun,
    outputs,
    steps: tracker.reports(),
    requests: tracker.requests,
    retries: tracker.retries,
    duration_ms: Math.round(ctx.now() - started),
    ...(ctx.dryRun ? { dry_run_writes: dryRun.writes } : {}),
    ...(error ? { error: reportedError(error, redactor) } : {}),
  } satisfies RunReport);
}

function reportedError(err: RecipeError, redactor: Redactor): ReportedError {
  const loc = err.location;
  return {
    code: err.code,
    message: redactor.redact(err.message),
    ...(loc?.file ? { file: loc.file } : {}),
    ...(loc?.line !== undefined ? { line: loc.line } : {}),
    ...(loc?.column !== undefined ? { column: loc.column } : {}),
    ...(typeof err.params.status === 'number' ? { status: err.params.status } : {}),
  };
}

function runId(random: () => number): string {
  let id = '';
  for (let i = 0; i < 12; i++) id += Math.floor(random() * 16).toString(16);
  return id;
}
