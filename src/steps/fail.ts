import type { FailStep } from '../compile/plan.js';
import { RecipeError } from '../errors/index.js';
import { locationOf } from '../frame/step-errors.js';
import { evaluate } from '../frame/eval.js';
import type { StepOutcome } from '../calls/step-context.js';
import type { Scope } from '../frame/scope.js';

/** fail: stops the run with the step's message (X003). */
export async function runFail(step: FailStep, scope: Scope): Promise<StepOutcome> {
  const value = await evaluate(step.message, scope);
  throw new RecipeError(
    'X003',
    { message: typeof value === 'string' ? value : JSON.stringify(value) },
    locationOf(step.loc),
  );
}
