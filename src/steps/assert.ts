import type { AssertStep } from '../compile/plan.js';
import { RecipeError } from '../errors/index.js';
import { locationOf } from '../frame/step-errors.js';
import { evaluate, truthy } from '../frame/eval.js';
import type { StepOutcome } from '../calls/step-context.js';
import type { Scope } from '../frame/scope.js';

/** assert: a false condition fails the run (X002) with the step's message. */
export async function runAssert(step: AssertStep, scope: Scope): Promise<StepOutcome> {
  const ok = truthy(await evaluate(step.condition, scope));
  if (!ok) {
    const message = step.message ? String(await evaluate(step.message, scope)) : `${conditionText(step)} is false`;
    throw new RecipeError('X002', { message }, locationOf(step.loc));
  }
  return { output: true };
}

function conditionText(step: AssertStep): string {
  const c = step.condition;
  return c.kind === 'expr' ? c.expr.source.trim() : 'the condition';
}
