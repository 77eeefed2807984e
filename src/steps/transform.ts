import type { TransformStep } from '../compile/plan.js';
import { evaluate } from '../frame/eval.js';
import type { StepOutcome } from '../calls/step-context.js';
import type { Scope } from '../frame/scope.js';

/** transform: the expression's value is the step's output. */
export async function runTransform(step: TransformStep, scope: Scope): Promise<StepOutcome> {
  return { output: await evaluate(step.value, scope) };
}
