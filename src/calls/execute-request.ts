import type { Envelope } from '../client/index.js';
import { RecipeError } from '../errors/index.js';
import type { StepContext } from './step-context.js';
import { locationOf } from '../frame/step-errors.js';
import { callService, type ServiceCall } from './call-service.js';
import { actionWrites, executeCall } from './call-kinds.js';

/**
 * One execute call for a step, through the record/replay point: a write under --dry-run is recorded and
 * answered with a placeholder; `findEffect` is the step's in_doubt lookup, for a resume to settle a write.
 */
export function sendExecute(
  stepCtx: StepContext,
  connectorId: string,
  entity: string,
  action: string,
  params: Record<string, unknown>,
  findEffect?: ServiceCall<Envelope>['findEffect'],
): Promise<Envelope> {
  // Whether the action writes is known after the run's first call to the connector: then no async frame.
  let known: boolean | Promise<boolean>;
  try {
    known = actionWrites(stepCtx, connectorId, entity, action);
  } catch (err) {
    return Promise.reject(err);
  }
  if (typeof known === 'boolean')
    return callService(stepCtx, executeCall(stepCtx, connectorId, entity, action, params, known, findEffect));
  return known.then((write) =>
    callService(stepCtx, executeCall(stepCtx, connectorId, entity, action, params, write, findEffect)),
  );
}

/** Params must evaluate to an object (or nothing). */
export function asParams(value: unknown, stepCtx: StepContext): Record<string, unknown> {
  if (value === undefined || value === null) return {};
  if (typeof value === 'object' && !Array.isArray(value)) return value as Record<string, unknown>;
  throw new RecipeError(
    'X007',
    { what: 'params', expected: 'an object', got: describeType(value) },
    locationOf(stepCtx.step.loc),
  );
}

/** A short description of a value's type for error messages (never the value: it may hold secrets). */
export function describeType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return `an array of ${value.length}`;
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}
