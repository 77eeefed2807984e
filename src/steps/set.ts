import type { SetStep, Value } from '../compile/plan.js';
import { evaluate, evaluateLater, evaluateNow } from '../frame/eval.js';
import { LATER } from '../expr/index.js';
import type { StepOutcome } from '../calls/step-context.js';
import type { Scope } from '../frame/scope.js';

/**
 * set: binds several names in the current frame. Values are evaluated in order, each seeing the names
 * bound before it; the step's output is the map of them. Synchronously while the compiler evaluates them,
 * from the first that must be awaited on as a promise (each value evaluated once either way).
 */
export function runSet(step: SetStep, scope: Scope): StepOutcome | Promise<StepOutcome> {
  const out: Record<string, unknown> = {};
  // Names, not entries: this runs per loop item, and Object.entries makes an array per member every time.
  const names = Object.keys(step.values);
  for (let i = 0; i < names.length; i++) {
    const name = names[i] as string;
    const v = evaluateNow(step.values[name] as Value, scope);
    if (v === LATER) return finishSet(step, names, i, out, scope);
    out[name] = v;
    scope.set(name, v);
  }
  return { output: out };
}

async function finishSet(
  step: SetStep,
  names: readonly string[],
  from: number,
  out: Record<string, unknown>,
  scope: Scope,
): Promise<StepOutcome> {
  for (let i = from; i < names.length; i++) {
    const name = names[i] as string;
    const value = step.values[name] as Value;
    // The first was just tried synchronously (LATER); the others have not been.
    out[name] = await (i === from ? evaluateLater(value, scope) : evaluate(value, scope));
    scope.set(name, out[name]);
  }
  return { output: out };
}
