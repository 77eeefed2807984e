import type { CallOptions, Envelope } from '../client/index.js';
import type { ExecuteStep, InDoubtLookup } from '../compile/plan.js';
import { evaluate } from '../frame/eval.js';
import type { StepContext } from './step-context.js';
import { asParams } from './execute-request.js';
import type { Scope } from '../frame/scope.js';

/**
 * The step's `in_doubt` lookup as a findEffect for the record/replay point: reads what the write would have
 * made and answers it as the write's result, or undefined when the write did not happen (then it is sent
 * again). Only a resume calls it, for a write that was sent and whose answer was never recorded.
 */
export function inDoubtFinder(
  step: ExecuteStep,
  scope: Scope,
  stepCtx: StepContext,
  connectorId: string,
  params: Record<string, unknown>,
): ((opts: CallOptions) => Promise<Envelope | undefined>) | undefined {
  const lookup = step.inDoubt;
  if (!lookup) return undefined;
  const request = { entity: step.entity, action: step.action, params };
  return async (opts) => {
    const readParams = asParams(await evaluate(lookup.params, scope, { request }), stepCtx);
    const read = await stepCtx.ctx.client.execute(
      connectorId,
      { entity: lookup.entity, action: lookup.action, params: readParams },
      opts,
    );
    const found = await effectOf(lookup, scope, read.result, request);
    stepCtx.ctx.log(
      'info',
      `${stepCtx.path}: write in doubt ${found === undefined ? 'not found: sending it again' : 'found by in_doubt lookup'}`,
    );
    if (found === undefined) return undefined;
    return { status: 'settled_by_lookup', result: found, connector_metadata: {}, execution_metadata: {} };
  };
}

/** `result` over the read's result, else its first item (a list) or itself; null, [] and nothing: not found. */
async function effectOf(lookup: InDoubtLookup, scope: Scope, result: unknown, request: unknown): Promise<unknown> {
  const value = lookup.result ? await evaluate(lookup.result, scope, { result, request }) : result;
  const found = Array.isArray(value) && !lookup.result ? value[0] : value;
  if (found === null || found === undefined || (Array.isArray(found) && found.length === 0)) return undefined;
  return found;
}
