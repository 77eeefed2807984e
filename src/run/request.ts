import { isWriteAction, type Envelope } from '../client/index.js';
import { RecipeError } from '../errors/index.js';
import type { StepExec } from './exec.js';
import { locationOf } from './errors.js';

/** One execute call for a step: a write under --dry-run is recorded and answered with a placeholder. */
export async function sendExecute(
  sx: StepExec,
  connectorId: string,
  entity: string,
  action: string,
  params: Record<string, unknown>,
): Promise<Envelope> {
  if (sx.ctx.dryRun && isWriteAction(entity, action)) {
    const result = await sx.exec.dryRun.record(sx, connectorId, entity, action, params);
    sx.ctx.log('info', sx.ctx.redactor.redact(`dry run: would send ${entity}.${action} ${JSON.stringify(params)}`));
    return { status: 'dry_run', result, connector_metadata: {}, execution_metadata: {} };
  }
  return sx.ctx.client.execute(connectorId, { entity, action, params }, sx.callOptions());
}

/** Params must evaluate to an object (or nothing). */
export function asParams(value: unknown, sx: StepExec): Record<string, unknown> {
  if (value === undefined || value === null) return {};
  if (typeof value === 'object' && !Array.isArray(value)) return value as Record<string, unknown>;
  throw new RecipeError(
    'X007',
    { what: 'params', expected: 'an object', got: describe(value) },
    locationOf(sx.step.loc),
  );
}

/** A short description of a value's type for error messages (never the value: it may hold secrets). */
export function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return `an array of ${value.length}`;
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}
