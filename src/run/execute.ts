import type { ExecuteStep } from '../compile/plan.js';
import { waitForContextStore } from './context-store.js';
import { evaluate } from './eval.js';
import { inDoubtFinder } from './in-doubt.js';
import type { StepExec } from './exec.js';
import type { StepOutcome } from './interpret.js';
import { asParams, sendExecute } from './request.js';
import type { Scope } from './scope.js';

/** execute: one call; the output is the envelope's result, $response the whole envelope. */
export async function runExecute(step: ExecuteStep, scope: Scope, sx: StepExec): Promise<StepOutcome> {
  const params = asParams(await evaluate(step.params, scope), sx);
  const connectorId = await sx.connectorId(scope, step);
  if (step.waitForContextStore) await waitForContextStore(sx, connectorId, step.entity);
  const envelope = await sendExecute(
    sx,
    connectorId,
    step.entity,
    step.action,
    params,
    inDoubtFinder(step, scope, sx, connectorId, params),
  );
  if (Array.isArray(envelope.result)) sx.stats.records += envelope.result.length;
  return { output: envelope.result, response: envelope };
}
