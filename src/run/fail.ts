import type { FailStep } from '../compile/plan.js';
import { RecipeError } from '../errors/index.js';
import { locationOf } from './errors.js';
import { evaluate } from './eval.js';
import type { StepOutcome } from './step-context.js';
import type { Scope } from './scope.js';

/** fail: stops the run with the step's message (X003). */
export async function runFail(step: FailStep, scope: Scope): Promise<StepOutcome> {
  const value = await evaluate(step.message, scope);
  throw new RecipeError(
    'X003',
    { message: typeof value === 'string' ? value : JSON.stringify(value) },
    locationOf(step.loc),
  );
}
