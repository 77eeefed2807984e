import type { SetStep } from '../compile/plan.js';
import { evaluate } from '../frame/eval.js';
import type { StepOutcome } from '../calls/step-context.js';
import type { Scope } from '../frame/scope.js';

/**
 * set: binds several names in the current frame. Values are evaluated in order, each seeing the names
 * bound before it; the step's output is the map of them.
 */
export async function runSet(step: SetStep, scope: Scope): Promise<StepOutcome> {
  const out: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(step.values)) {
    out[name] = await evaluate(value, scope);
    scope.set(name, out[name]);
  }
  return { output: out };
}
