import { abortableSleep, type Redactor } from '../client/index.js';
import type { ConnectorRef, ForeachStep, Plan, Step } from '../compile/plan.js';
import { RecipeError } from '../errors/index.js';
import type { RunJournal } from '../journal/index.js';
import { CallRecorder, type ReplayPolicy } from '../calls/call-recorder.js';
import type { ConnectorApi, LogLevel, RunContext } from '../frame/run-context.js';
import { chunkStepStats } from '../steps/distribute/distribute-stats.js';
import type { ChunkOutcome, DistributedForeach } from '../frame/distribute-types.js';
import { DryRunLog } from '../calls/dry-run.js';
import { writeFileAtomic } from './files.js';
import { runItems } from '../steps/foreach.js';
import { Tracker } from '../frame/report.js';
import type { RunState } from '../calls/run-state.js';
import { Scope } from '../frame/scope.js';
import { readSecrets } from '../frame/secrets-and-outputs.js';
import { StepContext } from '../calls/step-context.js';

/** What a worker needs to run one chunk of a distributed foreach. */
export interface ChunkRunOptions {
  /** The plan of the file the foreach is in (DistributedForeach.file, loaded by the worker). */
  readonly plan: Plan;
  readonly visit: DistributedForeach;
  /** The chunk: items start..end-1 of the foreach. */
  readonly start: number;
  readonly end: number;
  readonly client: ConnectorApi;
  readonly redactor: Redactor;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly signal: AbortSignal;
  /** The part of the run's journal this chunk holds: its calls join the run's, under the same keys. */
  readonly journal?: RunJournal;
  /** When the chunk runs again: answered calls replay, failed ones are sent again, writes in doubt settle. */
  readonly replay?: ReplayPolicy;
  readonly cwd?: string;
  readonly log?: (level: LogLevel, message: string) => void;
}

/**
 * Runs one chunk of a distributed foreach as the run itself would have run those items: the same step, the
 * same variables (as masked by the run), the item's own index and frame, so the same call keys and
 * Idempotency-Keys; `concurrency` and `on_error` mean what they mean locally, within the chunk. Throws the
 * chunk's first failure (on_error: fail), like a local foreach.
 */
export async function runForeachChunk(o: ChunkRunOptions): Promise<ChunkOutcome> {
  const { plan, visit } = o;
  const step = findForeach(plan.steps, visit.pointer);
  if (!step) throw new RecipeError('X001', { message: `no foreach at ${visit.pointer} in ${plan.file}` });
  const ctx: RunContext = {
    client: o.client,
    now: Date.now,
    random: Math.random,
    sleep: abortableSleep,
    signal: o.signal,
    redactor: o.redactor,
    dryRun: false,
    env: o.env,
    cwd: o.cwd ?? process.cwd(),
    writeFile: writeFileAtomic,
    log: (level, message) => o.log?.(level, o.redactor.redact(message)),
  };
  const tracker = new Tracker(() => undefined);
  const recorder = new CallRecorder(visit.runId, o.journal, o.redactor, o.replay);
  // A chunk run again reads the clock and chance its items' visits recorded, as a resume does.
  if (o.replay && o.journal) recorder.replayEffects(await o.journal.effects());
  const state: RunState = {
    ctx,
    plan,
    defaultConnector: connectorRef(visit, step),
    tracker,
    dryRun: new DryRunLog(),
    chain: [],
    depth: visit.depth,
    signal: o.signal,
    run: (visit.bindings.run ?? {}) as Record<string, unknown>,
    actionCatalog: new Map(),
    httpAllow: visit.httpAllow,
    recorder,
    frame: visit.frame,
    loop: visit.loop,
  };
  const root = new Scope();
  root.bound({ now: ctx.now, timeoutMs: plan.expressionTimeoutMs });
  for (const [name, value] of Object.entries(visit.bindings)) root.set(name, value);
  root.set('secrets', readSecrets(plan, ctx, step.loc));
  const stats = tracker.statsFor(step, visit.depth, plan.file);
  const stepCtx = new StepContext(state, step, stats, o.signal);
  const results = await runItems(step, visit.items.slice(o.start, o.end), o.start, root, stepCtx);
  return {
    results: o.redactor.redactValue(results),
    requests: tracker.requests,
    retries: tracker.retries,
    writes: recorder.writes,
    steps: chunkStepStats(step, tracker, visit.depth + 1, plan.file),
  };
}

/** The foreach at `pointer`, wherever it is nested. */
function findForeach(steps: readonly Step[], pointer: string): ForeachStep | undefined {
  for (const step of steps) {
    if (step.kind === 'foreach' && step.loc.pointer === pointer) return step;
    const inner = step.kind === 'foreach' ? step.steps : step.kind === 'paginate' ? step.steps : undefined;
    const found = inner ? findForeach(inner, pointer) : undefined;
    if (found) return found;
  }
  return undefined;
}

/** The run's default connector as plain strings again. */
function connectorRef(visit: DistributedForeach, step: ForeachStep): ConnectorRef | undefined {
  const c = visit.connector;
  if (!c) return undefined;
  const literal = (value: string): { kind: 'literal'; value: string } => ({ kind: 'literal', value });
  if ('id' in c) return { kind: 'id', id: literal(c.id), loc: step.loc };
  return {
    kind: 'lookup',
    definition: literal(c.definition),
    ...(c.workspace !== undefined ? { workspace: literal(c.workspace) } : {}),
    loc: step.loc,
  };
}
