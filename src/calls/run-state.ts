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
 * call keys (`notes[3]`), its place in `loop`, its trace span. Once per item, so built without spreading arrays.
 */
export function itemState(nested: RunState, path: string, index: number, span: TraceSpan | undefined): RunState {
  return {
    ...nested,
    loop: nested.loop === undefined ? [index] : nested.loop.concat(index),
    frame: `${path}[${index}]`,
    span,
  };
}
