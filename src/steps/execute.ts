import type { ExecuteStep } from '../compile/plan.js';
import { waitForContextStore } from '../calls/context-store-wait.js';
import { evaluateLater, evaluateNow } from '../frame/eval.js';
import { LATER } from '../expr/index.js';
import { inDoubtFinder } from '../calls/in-doubt-finder.js';
import type { StepContext, StepOutcome } from '../calls/step-context.js';
import { asParams, sendExecute } from '../calls/execute-request.js';
import { stepConnectorId } from '../calls/call-kinds.js';
import type { Scope } from '../frame/scope.js';

/** execute: one call; the output is the envelope's result, $response the whole envelope. */
export async function runExecute(step: ExecuteStep, scope: Scope, stepCtx: StepContext): Promise<StepOutcome> {
  // evaluate() without its own async frame: per item of a loop the params are answered at once.
  const now = evaluateNow(step.params, scope);
  const params = asParams(now === LATER ? await evaluateLater(step.params, scope) : now, stepCtx);
  const connectorId = await stepConnectorId(stepCtx, scope, step);
  if (step.waitForContextStore) await waitForContextStore(stepCtx, connectorId, step.entity);
  const envelope = await sendExecute(
    stepCtx,
    connectorId,
    step.entity,
    step.action,
    params,
    inDoubtFinder(step, scope, stepCtx, connectorId, params),
  );
  if (Array.isArray(envelope.result)) stepCtx.stats.records += envelope.result.length;
  return { output: envelope.result, response: envelope };
}
