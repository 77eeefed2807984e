import type { Step } from '../compile/plan.js';
import { RecipeError } from '../errors/index.js';
import { runAssert } from './assert.js';
import { runCall } from './call.js';
import { runDownload } from './download.js';
import { atStep, errorOutput, isInterrupt, locationOf } from '../frame/step-errors.js';
import { evaluate, truthy } from '../frame/eval.js';
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
import { spanOutcome, traceStep } from './visit/step-trace.js';
import { runTransform } from './transform.js';

/** Runs a list of steps in order in `scope`; returns the last step's output. */
export async function runSteps(steps: readonly Step[], scope: Scope, state: RunState): Promise<unknown> {
  let last: unknown;
  for (const step of steps) last = await runStep(step, scope, state);
  return last;
}

/** The one dispatch over step kinds; adding a kind without a case here fails to compile. */
function dispatch(step: Step, scope: Scope, stepCtx: StepContext): Promise<StepOutcome> {
  switch (step.kind) {
    case 'execute':
      return runExecute(step, scope, stepCtx);
    case 'paginate':
      return runPaginate(step, scope, stepCtx);
    case 'foreach':
      return runForeach(step, scope, stepCtx);
    case 'transform':
      return runTransform(step, scope);
    case 'set':
      return runSet(step, scope);
    case 'log':
      return runLog(step, scope, stepCtx);
    case 'assert':
      return runAssert(step, scope);
    case 'fail':
      return runFail(step, scope);
    case 'call':
      return runCall(step, scope, stepCtx);
    case 'download':
      return runDownload(step, scope, stepCtx);
    case 'http':
      return runHttp(step, scope, stepCtx);
    default: {
      const never: never = step;
      throw new Error(`unknown step kind ${JSON.stringify(never)}`);
    }
  }
}

/**
 * One step: `when`, then the kind, under the step's timeout and on_error, then binding and `assign`. Its
 * expressions read the visit's clock for `$now()`/`$millis()` (read once, when first called, and journaled
 * under the step path, so a resume replays it and `--now` pins it) and its seeded chance for `$random()` and
 * `$shuffle()` (the seed journaled the same way).
 */
export async function runStep(step: Step, scope: Scope, state: RunState): Promise<unknown> {
  if (state.signal.aborted) throw new RecipeError('X009', {}, locationOf(step.loc));
  scope.enterVisit(state.recorder.visit(() => stepPathOf(state, step), state.ctx));
  const ctx = state.ctx;
  const stats = state.tracker.statsFor(step, state.depth, state.plan.file);
  stats.runs++;
  if (step.when !== undefined && !truthy(await evaluate(step.when, scope))) {
    stats.skippedRuns++;
    if (stats.status === 'not_run') stats.status = 'skipped';
    state.tracker.stepEvent('step-end', stats, 'skipped');
    recordStep(state, step, 'skipped', ctx.now(), 0);
    traceStep(state, step)?.end({ status: 'skipped' });
    return undefined;
  }

  const started = ctx.now();
  // A runaway expression cannot be stopped by the timer below (it never yields): it checks this itself.
  const endDeadline =
    step.timeoutMs !== undefined ? scope.pushDeadline(started + step.timeoutMs, step.timeoutMs) : undefined;
  state.tracker.stepEvent('step-start', stats);
  recordStep(state, step, 'running', started, null);
  let visit = 'ok';
  let errorCode: string | null = null;
  // Only a step with timeout_ms needs its own signal and timer; the others use the run's signal, so a
  // streaming paginate or a foreach does not create (and abort) two AbortControllers per item.
  const deadline = step.timeoutMs !== undefined ? new AbortController() : undefined;
  const onParentAbort = (): void => deadline?.abort();
  if (deadline) state.signal.addEventListener('abort', onParentAbort, { once: true });
  let timedOut = false;
  const timer = deadline ? new AbortController() : undefined;
  const span = traceStep(state, step);
  let failure: RecipeError | undefined;
  const stepCtx = new StepContext(state, step, stats, deadline?.signal ?? state.signal, span);
  try {
    let work = dispatch(step, scope, stepCtx);
    if (step.timeoutMs !== undefined && deadline && timer) {
      const timeoutMs = step.timeoutMs;
      const expiry = ctx.sleep(timeoutMs, timer.signal).then(
        () => {
          timedOut = true;
          deadline.abort();
          throw new RecipeError('X005', { timeoutMs }, locationOf(step.loc));
        },
        () => new Promise<never>(() => undefined),
      );
      work = Promise.race([work, expiry]);
    }
    let outcome: StepOutcome;
    try {
      outcome = await work;
    } catch (err) {
      // Cancelled by the step's own deadline: say it timed out (a more specific error, e.g. X006, wins).
      if (timedOut && isInterrupt(err) && !state.signal.aborted)
        throw new RecipeError('X005', { timeoutMs: step.timeoutMs }, locationOf(step.loc));
      throw err;
    }
    if (step.id !== undefined) scope.set(step.id, outcome.output);
    if (step.assign) {
      const extra = { result: outcome.output, response: outcome.response };
      for (const [name, value] of Object.entries(step.assign)) scope.set(name, await evaluate(value, scope, extra));
    }
    if (stats.status === 'not_run' || stats.status === 'skipped') stats.status = 'ok';
    return outcome.output;
  } catch (err) {
    const e = atStep(err, step.loc);
    errorCode = e.code;
    failure = e;
    if (isInterrupt(e) || state.signal.aborted || step.onError === 'fail') {
      stats.status = 'failed';
      visit = 'failed';
      throw e;
    }
    stats.status = 'continued';
    visit = 'continued';
    const output = errorOutput(e, (s) => ctx.redactor.redact(s));
    ctx.log('warn', ctx.redactor.redact(`${stats.id}: ${e.message} (on_error: continue)`));
    if (step.id !== undefined) scope.set(step.id, output);
    return output;
  } finally {
    endDeadline?.();
    if (deadline) {
      timer?.abort();
      state.signal.removeEventListener('abort', onParentAbort);
    }
    const duration = ctx.now() - started;
    stats.durationMs += duration;
    state.tracker.stepEvent('step-end', stats, stats.status);
    recordStep(state, step, visit, started, duration, errorCode);
    span?.end(spanOutcome(visit, failure));
  }
}
