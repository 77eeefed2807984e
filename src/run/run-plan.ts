import type { ConnectorCatalog } from '../catalog/index.js';
import type { Redactor } from '../client/index.js';
import { abortableSleep, Redactor as RedactorClass } from '../client/index.js';
import type { ConnectorRef, Plan } from '../compile/plan.js';
import { RecipeError } from '../errors/index.js';
import type { CancelRequest, RunJournal } from '../journal/index.js';
import type { RunTracer } from '../telemetry/index.js';
import { CallRecorder, type ReplayPolicy } from '../calls/call-recorder.js';
import { collectExpressions, describeEngine, describeHandBack, type JsonataExpr } from '../expr/index.js';
import type { ConnectorApi, LogLevel, RunContext, RunEvent } from '../frame/run-context.js';
import type { ForeachDistributor } from '../frame/distribute-types.js';
import { DryRunLog } from '../calls/dry-run.js';
import type { RunState } from '../calls/run-state.js';
import { writeFileAtomic } from './files.js';
import { runSteps } from '../steps/interpret.js';
import { evaluateOutputs, readSecrets } from '../frame/secrets-and-outputs.js';
import { Tracker, type ReportedError, type RunReport } from '../frame/report.js';
import { newRunId } from './run-id.js';
import { Scope } from '../frame/scope.js';

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
  /** Whether `log` wants debug lines (default: yes when there is a `log`); without, per-request lines are not made. */
  readonly debug?: boolean;
  readonly onEvent?: (event: RunEvent) => void;
  /** The deepest step depth whose events onEvent wants (0: top-level steps only); default every depth. */
  readonly eventDepth?: number;
  /** The run's id ($run.id, the report's run_id); default a random one. */
  readonly runId?: string;
  /** Journal the run (and replay a resume): set up by beginRun/resumeRun in journal-session.ts. */
  readonly durable?: DurableRun;
  /** Asked before each request to a URL outside the connector API; rejects to refuse it (`recipe test`). */
  readonly beforeOutside?: RunContext['beforeOutside'];
  /** A fleet worker's: foreach steps with `distribute` send their items to the fleet (run/distribute.ts). */
  readonly distributor?: ForeachDistributor;
  /** Trace the run (telemetry's loadTracer; the caller shuts it down once its runs are over). */
  readonly tracer?: RunTracer;
  /** The default `max_duration` of transient-failure retries (--retry-for; 0: attempts only; default 10 min). */
  readonly retryForMs?: number;
}

/** How often a run says it is still waiting for a service that is down (one line, not one per call). */
const WAITING_NOTICE_MS = 5_000;

/** A run being journaled: a new one (attempt 1) or a resume. */
export interface DurableRun {
  readonly journal: RunJournal;
  readonly runId: string;
  /** The run's recorded clock (epoch ms): $run.started_at is the same on every attempt. */
  readonly startedAt: number;
  readonly attempt: number;
  readonly resumedFrom?: { readonly attempt: number; readonly status: string };
  readonly replay?: ReplayPolicy;
  /** Inputs that held a secret value: journaled masked, so a resume asks for them again (J010). */
  readonly maskedInputs?: readonly string[];
}

/**
 * Runs a compiled plan to the end and reports. A failing run does not throw: the report says
 * status failed (or interrupted) with the error, its code and location; outputs and messages are redacted.
 */
export async function runPlan(plan: Plan, options: RunOptions): Promise<RunReport> {
  const redactor = options.redactor ?? new RedactorClass();
  const durable = options.durable;
  const journal = durable?.journal;
  // `recipe cancel` stores a request in the journal; the run sees it here and aborts what it has in flight.
  const cancel = journal ? watchCancel(journal) : undefined;
  const signal = cancelSignal(options.signal, cancel?.signal);
  let lastWaitingNotice = -Infinity;
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
    debug: options.log !== undefined && options.debug !== false,
    ...(options.onEvent ? { onEvent: options.onEvent } : {}),
    ...(options.distributor ? { distributor: options.distributor } : {}),
    ...(options.beforeOutside ? { beforeOutside: options.beforeOutside } : {}),
    ...(options.retryForMs !== undefined ? { retryForMs: options.retryForMs } : {}),
    waiting: (message: string) => {
      const at = ctx.now();
      if (at - lastWaitingNotice < WAITING_NOTICE_MS) return;
      lastWaitingNotice = at;
      ctx.log('warn', message);
    },
    // Which variables were read, never their values (they are secrets).
    ...(journal ? { onEnvRead: (name: string) => journal.effect(`env:${name}`, { read: true }) } : {}),
  };
  const tracker = new Tracker((e) => ctx.onEvent?.(e), options.eventDepth);
  tracker.register(plan.steps, 0, plan.file);
  const expressions = logEngines(plan, ctx);
  const dryRun = new DryRunLog(options.catalog);
  const attemptStarted = ctx.now();
  // A resume replays the run's recorded clock and id, so the requests it computes match the recorded ones.
  const started = durable?.startedAt ?? attemptStarted;
  const id = durable?.runId ?? options.runId ?? newRunId(ctx.random);
  const defaultConnector: ConnectorRef | undefined = options.connectorId
    ? {
        kind: 'id',
        id: { kind: 'literal', value: options.connectorId },
        loc: { file: plan.file, line: 1, column: 1, pointer: '' },
      }
    : plan.connector;
  const recorder = new CallRecorder(id, journal, redactor, durable?.replay);
  const masked = durable?.maskedInputs ?? [];
  if (masked.length > 0)
    ctx.log(
      'warn',
      `input ${masked.join(', ')} held a secret value: the journal keeps it masked, so a resume of run ${id} asks for it again (-i NAME=VALUE); pass secrets as secrets, not inputs`,
    );
  if (journal && durable?.attempt === 1) {
    journal.effect('clock:started_at', new Date(started).toISOString());
    journal.effect('random:run_id', id);
  }
  const run = {
    id,
    recipe: plan.name,
    started_at: new Date(started).toISOString(),
    dry_run: ctx.dryRun,
  };
  const state: RunState = {
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
    recorder,
    frame: '',
    span: options.tracer?.startRun(
      { runId: id, recipe: plan.name, file: plan.file, dryRun: ctx.dryRun, attempt: durable?.attempt ?? 1 },
      (text) => redactor.redact(text),
    ),
  };

  let outputs: Record<string, unknown> = {};
  let error: RecipeError | undefined;
  try {
    if (journal?.resuming) recorder.replayEffects(await journal.effects());
    const root = new Scope();
    root.bound({ now: ctx.now, timeoutMs: plan.expressionTimeoutMs });
    root.set('inputs', { ...options.inputs });
    root.set('secrets', readSecrets(plan, ctx));
    root.set('run', run);
    await runSteps(plan.steps, root, state);
    // Outside any step (the outputs), $now() reads the clock once more, journaled like a step visit's.
    root.enterVisit(recorder.visit(() => '$outputs', ctx));
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
    const cancelled = cancel?.request();
    if (cancelled)
      error = new RecipeError(
        'X021',
        { reason: cancelled.reason === null ? '' : `: ${cancelled.reason}` },
        error.location,
        {
          cause: error,
        },
      );
    else if (signal.aborted && error.code !== 'X009')
      error = new RecipeError('X009', {}, error.location, { cause: error });
  } finally {
    cancel?.stop();
  }
  const status = !error ? 'ok' : error.class === 'interrupted' ? 'interrupted' : 'failed';
  state.span?.end(error ? { status, error: { code: error.code, message: error.message } } : { status });
  for (const expr of expressions) {
    const line = describeHandBack(expr);
    if (line !== undefined) ctx.log('debug', line);
  }
  const report = redactor.redactValue({
    status,
    run_id: id,
    ...(durable && durable.attempt > 1
      ? {
          attempt: durable.attempt,
          ...(durable.resumedFrom ? { resumed_from: durable.resumedFrom } : {}),
          replayed_calls: recorder.replayed,
        }
      : {}),
    recipe: plan.name,
    file: plan.file,
    dry_run: ctx.dryRun,
    outputs,
    steps: tracker.reports(),
    requests: tracker.requests,
    retries: tracker.retries,
    duration_ms: Math.round(ctx.now() - attemptStarted),
    ...(ctx.dryRun ? { dry_run_writes: dryRun.writes } : {}),
    ...(error ? { error: reportedError(error, redactor) } : {}),
  } satisfies RunReport);
  if (journal) await finishJournal(journal, report, recorder, error, ctx);
  return report;
}

/** How often a journaled run asks its journal whether `recipe cancel` was asked for it. */
const CANCEL_POLL_MS = 250;

/** A run's watch for a cancel request: its signal aborts once the journal holds one for this attempt. */
interface CancelWatch {
  readonly signal: AbortSignal;
  request(): CancelRequest | undefined;
  stop(): void;
}

function watchCancel(journal: RunJournal): CancelWatch {
  const controller = new AbortController();
  let seen: CancelRequest | undefined;
  let asking = false;
  const timer = setInterval(() => {
    if (asking || seen) return;
    asking = true;
    journal
      .cancelRequested()
      .then((r) => {
        if (r && !seen) {
          seen = r;
          controller.abort();
        }
      })
      // A journal that cannot be read now is asked again at the next tick; the run goes on meanwhile.
      .catch(() => undefined)
      .finally(() => (asking = false));
  }, CANCEL_POLL_MS);
  timer.unref();
  return { signal: controller.signal, request: () => seen, stop: () => clearInterval(timer) };
}

/** The run's signal: the caller's (Ctrl-C) and the cancel watch's, either aborts it. */
function cancelSignal(outer: AbortSignal | undefined, cancel: AbortSignal | undefined): AbortSignal {
  if (outer && cancel) return AbortSignal.any([outer, cancel]);
  return outer ?? cancel ?? new AbortController().signal;
}

/** Records the attempt's end; a journal that fails now is a warning (the run itself is over). */
async function finishJournal(
  journal: RunJournal,
  report: RunReport,
  recorder: CallRecorder,
  error: RecipeError | undefined,
  ctx: RunContext,
): Promise<void> {
  try {
    await journal.finish({
      status: report.status,
      ended_at: ctx.now(), // the clock started_at came from: a --now run ends its duration after it started
      duration_ms: report.duration_ms,
      outputs: report.outputs,
      error: report.error ? { ...report.error } : null,
      report: JSON.stringify(report),
      failed_call: error ? recorder.failedCallOf(error) : null,
      requests: report.requests,
      writes: recorder.writes,
      replayed_calls: recorder.replayed,
    });
  } catch (err) {
    ctx.log('warn', `the run journal could not record the end of run ${report.run_id}: ${(err as Error).message}`);
    await journal.release().catch(() => undefined);
  }
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

/** Debug lines (`recipe run -v`): which expressions run compiled, and which jsonata evaluates and why. */
function logEngines(plan: Plan, ctx: RunContext): JsonataExpr[] {
  const expressions = collectExpressions(plan);
  const compiled = expressions.filter((e) => e.engine.kind === 'compiled').length;
  ctx.log('debug', `expressions: ${compiled} of ${expressions.length} compiled to JS, the others run in jsonata`);
  for (const expr of expressions) ctx.log('debug', describeEngine(expr));
  return expressions;
}
