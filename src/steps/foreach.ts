import { setMaxListeners } from 'node:events';
import type { ForeachStep } from '../compile/plan.js';
import type { RecipeError } from '../errors/index.js';
import { distributeForeach } from './distribute/distribute.js';
import { atStep, errorOutput, isInterrupt } from '../frame/step-errors.js';
import { evaluate, evaluateLater, evaluateNow } from '../frame/eval.js';
import { LATER } from '../expr/index.js';
import { runSteps } from './interpret.js';
import { itemState } from '../calls/run-state.js';
import type { StepContext, StepOutcome } from '../calls/step-context.js';
import { spanOutcome } from './visit/step-trace.js';
import type { Scope } from '../frame/scope.js';

/**
 * foreach: runs `steps` once per item, at most `concurrency` at a time, each iteration in its own frame
 * with `as` (and `index_as`) bound. The output is `collect` per iteration (else each iteration's last
 * step output), in input order. With on_error: continue a failed iteration yields {error} and the others
 * go on; with fail, the first failure cancels the iterations still running and fails the step.
 * With `distribute` on a fleet run (a worker set ctx.distributor), the items go out in chunks to other
 * workers, each running runItems on its chunk; anywhere else the same recipe runs here, as it always did.
 */
export async function runForeach(step: ForeachStep, scope: Scope, stepCtx: StepContext): Promise<StepOutcome> {
  const items = asList(await evaluate(step.items, scope));
  stepCtx.stats.total = (stepCtx.stats.total ?? 0) + items.length;
  const distributor = stepCtx.ctx.distributor;
  // Under a package's grant the items stay on this worker: a chunk job carries no grant to enforce.
  if (step.distribute && distributor && !stepCtx.ctx.dryRun && items.length > 0 && !stepCtx.state.grant)
    return { output: await distributeForeach(step, items, scope, stepCtx, distributor) };
  return { output: await runItems(step, items, 0, scope, stepCtx) };
}

/**
 * Runs the body for `items`, the items first..first+items.length-1 of the foreach (a chunk of a distributed
 * one starts past 0): indexes, frames and call keys are the item's place in the whole list.
 */
export async function runItems(
  step: ForeachStep,
  items: readonly unknown[],
  first: number,
  scope: Scope,
  stepCtx: StepContext,
): Promise<unknown[]> {
  const cancel = new AbortController();
  // Every item in flight listens on this signal (its request, its rate wait, its retry sleep) and lets go
  // when that ends: up to 64 items × 3, not a leak. Node's warning past 10 listeners would only be noise.
  setMaxListeners(0, cancel.signal);
  const onAbort = (): void => cancel.abort();
  stepCtx.signal.addEventListener('abort', onAbort, { once: true });
  const nested = stepCtx.nested(cancel.signal);
  const results: unknown[] = new Array(items.length);
  let firstError: RecipeError | null = null;
  let next = 0;

  const iterate = async (at: number): Promise<void> => {
    const index = first + at;
    const frame = scope.child();
    frame.set(step.as, items[at]);
    if (step.indexAs !== undefined) frame.set(step.indexAs, index);
    const span = stepCtx.iterationSpan(index);
    try {
      // Each item has its own frame in call keys (`notes[3]`), whatever order the items run in.
      const ran = runSteps(step.steps, frame, itemState(nested, stepCtx.path, index, span));
      const last = ran instanceof Promise ? await ran : ran;
      const collected = step.collect ? evaluateNow(step.collect, frame) : last;
      results[at] = collected === LATER && step.collect ? await evaluateLater(step.collect, frame) : collected;
      span?.end({ status: 'ok' });
    } catch (err) {
      const e = atStep(err, step.loc);
      span?.end(spanOutcome(step.onError === 'continue' ? 'continued' : 'failed', e));
      if (step.onError === 'continue' && !isInterrupt(e) && !stepCtx.signal.aborted) {
        results[at] = errorOutput(e, (s) => stepCtx.ctx.redactor.redact(s));
        stepCtx.ctx.log(
          'warn',
          stepCtx.ctx.redactor.redact(`${stepCtx.stats.id}[${index}]: ${e.message} (on_error: continue)`),
        );
      } else {
        // Keep the first real failure; iterations cancelled because of it fail with an interrupt.
        if (!firstError || (isInterrupt(firstError) && !isInterrupt(e))) firstError = e;
        cancel.abort();
      }
    } finally {
      stepCtx.stats.done++;
      stepCtx.progress();
    }
  };

  const worker = async (): Promise<void> => {
    while (!cancel.signal.aborted && next < items.length) await iterate(next++);
  };
  const workers = Math.max(1, Math.min(step.concurrency, items.length));
  try {
    await Promise.all(Array.from({ length: workers }, worker));
  } finally {
    stepCtx.signal.removeEventListener('abort', onAbort);
  }
  if (firstError) throw firstError;
  return results;
}

/** JSONata gives a single value for a one-item sequence and undefined for none; foreach takes both. */
function asList(value: unknown): unknown[] {
  if (value === undefined || value === null) return [];
  return Array.isArray(value) ? value : [value];
}
