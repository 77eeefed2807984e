import type { TransformStep } from '../compile/plan.js';
import { evaluateLater, evaluateNow } from '../frame/eval.js';
import { LATER } from '../expr/index.js';
import type { StepOutcome } from '../calls/step-context.js';
import type { Scope } from '../frame/scope.js';

/**
 * transform: the expression's value is the step's output; synchronously when the compiler evaluates it
 * (per item of a loop, no promise), else a promise of it.
 */
export function runTransform(step: TransformStep, scope: Scope): StepOutcome | Promise<StepOutcome> {
  const output = evaluateNow(step.value, scope);
  if (output !== LATER) return { output };
  return evaluateLater(step.value, scope).then((value) => ({ output: value }));
}
