import type { Step } from '../compile/plan.js';
import { RecipeError } from '../errors/index.js';
import { runAssert } from './assert.js';
import { runCall } from './call.js';
import { runDownload } from './download.js';
import { isInterrupt, locationOf } from '../frame/step-errors.js';
import { evaluate, evaluateLater, evaluateNow, truthy } from '../frame/eval.js';
import { LATER } from '../expr/index.js';
import type { StepStats } from '../frame/report.js';
import { runExecute } from './execute.js';
import { stepPathOf, type RunState } from '../calls/run-state.js';
import { StepContext, type StepOutcome } from '../calls/step-context.js';
import { runFail } from './fail.js';
import { runForeach } from './foreach.js';
import { runHttp } from './http.js';
import { runLog } from './log.js';
import { runPaginate } from './paginate.js';
import { runSet } from './set.js';
import type { Scope } from '../frame/scope.js';
import { recordStep } from './visit/step-events.js';
import { traceStep } from './visit/step-trace.js';
import { StepVisit } from './visit/step-visit.js';
import { runTransform } from './transform.js';

/**
 * Runs a list of steps in order in `scope`; returns the last step's output, or a promise of it once a step
 * has to wait (see runStep): a loop's body of transforms and sets runs without a promise per item.
 */
export function runSteps(steps: readonly Step[], scope: Scope, state: RunState): unknown {
  let last: unknown;
  for (let i = 0; i < steps.length; i++) {
    const out = runStep(steps[i] as Step, scope, state);
    if (out instanceof Promise) return finishSteps(out, steps, i + 1, scope, state);
    last = out;
  }
  return last;
}

async function finishSteps(
  pending: Promise<unknown>,
  steps: readonly Step[],
  from: number,
  scope: Scope,
  state: RunState,
): Promise<unknown> {
  let last = await pending;
  for (let i = from; i < steps.length; i++) last = await runStep(steps[i] as Step, scope, state);
  return last;
}

/**
 * The one dispatch over step kinds; adding a kind without a case here fails to compile. Only the kinds that
 * call out, log or run nested steps get a StepContext: a transform or a set runs per loop item, and making
 * one it never reads was an allocation per step.
 */
function dispatch(step: Step, scope: Scope, visit: StepVisit, signal: AbortSignal): StepOutcome | Promise<StepOutcome> {
  switch (step.kind) {
    case 'execute':
      return runExecute(step, scope, contextOf(visit, signal));
    case 'paginate':
      return runPaginate(step, scope, contextOf(visit, signal));
    case 'foreach':
      return runForeach(step, scope, contextOf(visit, signal));
    case 'transform':
      return runTransform(step, scope);
    case 'set':
      return runSet(step, scope);
    case 'log':
      return runLog(step, scope, contextOf(visit, signal));
    case 'assert':
      return runAssert(step, scope);
    case 'fail':
      return runFail(step, scope);
    case 'call':
      return runCall(step, scope, contextOf(visit, signal));
    case 'download':
      return runDownload(step, scope, contextOf(visit, signal));
    case 'http':
      return runHttp(step, scope, contextOf(visit, signal));
    default: {
      const never: never = step;
      throw new Error(`unknown step kind ${JSON.stringify(never)}`);
    }
  }
}

/** The context of a visit's calls, under `signal` (the run's, or the step's own under timeout_ms). */
function contextOf(visit: StepVisit, signal: AbortSignal): StepContext {
  return new StepContext(visit.state, visit.step, visit.stats, signal, visit.span);
}

/**
 * One step: `when`, then the kind, under the step's timeout and on_error, then binding and `assign`. Its
 * expressions read the visit's clock for `$now()`/`$millis()` (read once, when first called, and journaled
 * under the step path, so a resume replays it and `--now` pins it) and its seeded chance for `$random()` and
 * `$shuffle()` (the seed journaled the same way).
 *
 * Answers the output, or a promise of it: a transform or set (no timeout, no assign) whose expressions
 * the compiler evaluates synchronously runs to its end here, with the same bookkeeping (StepVisit) as a
 * step that waits. A throw is a failure either way (callers await the answer).
 */
export function runStep(step: Step, scope: Scope, state: RunState): unknown {
  if (state.signal.aborted) throw new RecipeError('X009', {}, locationOf(step.loc));
  scope.enterVisit(state.recorder.visit(() => stepPathOf(state, step), state.ctx));
  const stats = state.tracker.statsFor(step, state.depth, state.plan.file);
  stats.runs++;
  if (step.when === undefined) return runBody(step, scope, state, stats);
  const when = evaluateNow(step.when, scope);
  if (when === LATER)
    return evaluateLater(step.when, scope).then((w) =>
      truthy(w) ? runBody(step, scope, state, stats) : skip(step, state, stats),
    );
  return truthy(when) ? runBody(step, scope, state, stats) : skip(step, state, stats);
}

function skip(step: Step, state: RunState, stats: StepStats): undefined {
  stats.skippedRuns++;
  if (stats.status === 'not_run') stats.status = 'skipped';
  state.tracker.stepEvent('step-end', stats, 'skipped');
  recordStep(state, step, 'skipped', state.ctx.now(), 0);
  traceStep(state, step)?.end({ status: 'skipped' });
  return undefined;
}

function runBody(step: Step, scope: Scope, state: RunState, stats: StepStats): unknown {
  const visit = new StepVisit(step, scope, state, stats);
  let outcome: StepOutcome | Promise<StepOutcome>;
  try {
    outcome =
      step.timeoutMs !== undefined ? underTimeout(visit, step.timeoutMs) : dispatch(step, scope, visit, state.signal);
  } catch (err) {
    try {
      return visit.failed(err);
    } finally {
      visit.end();
    }
  }
  if (outcome instanceof Promise || step.assign !== undefined) return settle(visit, outcome);
  try {
    return visit.succeeded(outcome.output);
  } finally {
    visit.end();
  }
}

/** A step that waits: its outcome awaited, then `assign`. */
async function settle(visit: StepVisit, outcome: StepOutcome | Promise<StepOutcome>): Promise<unknown> {
  const { step, scope } = visit;
  try {
    const done = await outcome;
    const output = visit.succeeded(done.output);
    if (step.assign) {
      const extra = { result: done.output, response: done.response };
      for (const [name, value] of Object.entries(step.assign)) scope.set(name, await evaluate(value, scope, extra));
    }
    return output;
  } catch (err) {
    return visit.failed(err);
  } finally {
    visit.end();
  }
}

/**
 * The step's kind under timeout_ms: its own signal, aborted by the run's or by the timer. Only such a step
 * gets them; the others use the run's signal, so a streaming paginate or a foreach does not create (and
 * abort) two AbortControllers per item.
 */
async function underTimeout(visit: StepVisit, timeoutMs: number): Promise<StepOutcome> {
  const { step, scope, state } = visit;
  const deadline = new AbortController();
  const timer = new AbortController();
  const onParentAbort = (): void => deadline.abort();
  state.signal.addEventListener('abort', onParentAbort, { once: true });
  let timedOut = false;
  try {
    // The kind first: one that fails synchronously starts no timer (whose expiry nobody would await).
    const work = dispatch(step, scope, visit, deadline.signal);
    const expiry = state.ctx.sleep(timeoutMs, timer.signal).then(
      () => {
        timedOut = true;
        deadline.abort();
        throw new RecipeError('X005', { timeoutMs }, locationOf(step.loc));
      },
      () => new Promise<never>(() => undefined),
    );
    return await Promise.race([work, expiry]);
  } catch (err) {
    // Cancelled by the step's own deadline: say it timed out (a more specific error, e.g. X006, wins).
    if (timedOut && isInterrupt(err) && !state.signal.aborted)
      throw new RecipeError('X005', { timeoutMs }, locationOf(step.loc));
    throw err;
  } finally {
    timer.abort();
    state.signal.removeEventListener('abort', onParentAbort);
  }
}
