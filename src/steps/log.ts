import type { LogStep } from '../compile/plan.js';
import { evaluate } from '../frame/eval.js';
import type { StepContext, StepOutcome } from '../calls/step-context.js';
import type { Scope } from '../frame/scope.js';

/** log: one line (secrets masked); the output is the line. */
export async function runLog(step: LogStep, scope: Scope, stepCtx: StepContext): Promise<StepOutcome> {
  const value = await evaluate(step.message, scope);
  const line = stepCtx.ctx.redactor.redact(typeof value === 'string' ? value : (JSON.stringify(value) ?? ''));
  stepCtx.ctx.log('info', line);
  return { output: line };
}
