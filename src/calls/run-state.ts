import type { ConnectorRef, Plan, Step } from '../compile/plan.js';
import type { Grant } from '../packages/grant.js';
import type { TraceSpan } from '../telemetry/index.js';
import type { CallRecorder } from './call-recorder.js';
import type { RunContext } from '../frame/run-context.js';
import type { DryRunLog } from './dry-run.js';
import type { StepStats, Tracker } from '../frame/report.js';

/** The state of one run that nested step lists share (a `call` gets its own plan and default connector). */
export interface RunState {
  readonly ctx: RunContext;
  readonly plan: Plan;
  readonly defaultConnector: ConnectorRef | undefined;
  readonly tracker: Tracker;
  readonly dryRun: DryRunLog;
  /** Stats of the enclosing steps, outermost first: their counters include nested work. */
  readonly chain: readonly StepStats[];
  readonly depth: number;
  readonly signal: AbortSignal;
  /** $run: what every expression can read about the run. */
  readonly run: Readonly<Record<string, unknown>>;
  /** Index of the current item in each enclosing loop (foreach, streaming paginate), outermost first. */
  readonly loop?: readonly number[];
  /** inspect's `actions` per connector id, asked at most once per run (paging key detection). */
  readonly actionCatalog: Map<string, Promise<Record<string, unknown>[] | null>>;
  /** The `http.allow` lists of this recipe and of the recipes that called it: a host must be in each. */
  readonly httpAllow: readonly (readonly string[])[];
  /**
   * What the recipe running here may write, when a call narrowed it (a package call, or `allow:`): the
   * grants intersected down the chain, the package they were given to, and the writes counted against
   * max_writes (shared by every step under that call). Absent: the caller's own recipes, full rights.
   */
  readonly grant?: GrantInForce;
  /** Records and replays the run's calls (service-call.ts). */
  readonly recorder: CallRecorder;
  /**
   * Where this step list runs, as a step path prefix: '' at the top, `notes[3]` in item 3 of foreach `notes`,
   * `rollup` inside the recipe that call step `rollup` runs. Call keys are built from it, so they depend on
   * the position of a call in the run, never on the order concurrent items happen to run in.
   */
  readonly frame: string;
  /** The trace span this list's steps are children of (the run's, a step's, an iteration's); unset when not traced. */
  readonly span?: TraceSpan;
}

/** A step's path in the run: the frame, then its id (kind@pointer without one). */
export function stepPathOf(state: RunState, step: Step): string {
  const ref = step.id ?? `${step.kind}@${step.loc.pointer}`;
  return state.frame === '' ? ref : `${state.frame}.${ref}`;
}

/** A grant as the run enforces it (see RunState.grant). */
export interface GrantInForce {
  readonly grant: Grant;
  /** The package (recipe.lock key) or file it was given to, for messages. */
  readonly to: string;
  readonly counter: { writes: number };
}

/**
 * The state of item `index` of a loop (foreach, streaming paginate) whose step path is `path`: its own frame in
 * call keys (`notes[3]`), its place in `loop`, its trace span. Built once per item, so every member is named
 * (the type makes a new RunState member a compile error here): a spread of `nested`, whose shape varies with
 * where it was made, cost more than the item's step itself (bench/README.md, issue 29).
 */
export function itemState(nested: RunState, path: string, index: number, span: TraceSpan | undefined): RunState {
  const item: { readonly [K in keyof Required<RunState>]: RunState[K] } = {
    ctx: nested.ctx,
    plan: nested.plan,
    defaultConnector: nested.defaultConnector,
    tracker: nested.tracker,
    dryRun: nested.dryRun,
    chain: nested.chain,
    depth: nested.depth,
    signal: nested.signal,
    run: nested.run,
    loop: nested.loop === undefined ? [index] : nested.loop.concat(index),
    actionCatalog: nested.actionCatalog,
    httpAllow: nested.httpAllow,
    grant: nested.grant,
    recorder: nested.recorder,
    frame: `${path}[${index}]`,
    span,
  };
  return item;
}
