import type { ValidateFunction } from 'ajv/dist/2020.js';
import type { ActionDescriptor, ConnectorType } from './connector-type.js';
import { ServiceError } from './errors.js';
import { compileSchema } from './params-validator.js';

/** An action of a type as execute needs it: its descriptor and its compiled params validator. */
export interface IndexedAction {
  readonly descriptor: ActionDescriptor;
  /** Compiled on first use (compiling every schema up front would slow every start). */
  validator(): ValidateFunction;
}

/** Finds a type's action by entity and action name, or throws the 400 that lists what is valid. */
export type ActionIndex = (type: ConnectorType, entity: string, action: string) => IndexedAction;

/**
 * One map from (type, entity, action) to the action, with its params schema compiled once: execute asks
 * on every request, and filtering a type's ~120 descriptors each time showed in its profile. One index per
 * app (the execute route makes it).
 */
export function createActionIndex(types: readonly ConnectorType[]): ActionIndex {
  const byKey = new Map<string, IndexedAction>();
  const entities = new Map<ConnectorType, Set<string>>();
  for (const t of types) {
    entities.set(t, new Set(t.actions.map((a) => a.entity)));
    for (const a of t.actions) {
      let compiled: ValidateFunction | null = null;
      byKey.set(`${t.definition.id}\u0000${a.entity}\u0000${a.action}`, {
        descriptor: a,
        validator: () => (compiled ??= compileSchema(a.paramsSchema)),
      });
    }
  }
  return (type, entity, action) => {
    const hit = byKey.get(`${type.definition.id}\u0000${entity}\u0000${action}`);
    if (hit && hit.descriptor.entity === entity) return hit;
    const typeName = type.definition.name;
    if (!(entities.get(type) ?? new Set(type.actions.map((a) => a.entity))).has(entity)) {
      const valid = [...new Set(type.actions.map((a) => a.entity))];
      throw new ServiceError(
        'H400_UNKNOWN_ENTITY',
        { type: typeName, entity, valid: valid.join(', ') || '(none)' },
        { field: 'entity', details: { valid_entities: valid } },
      );
    }
    const valid = type.actions.filter((a) => a.entity === entity).map((a) => a.action);
    throw new ServiceError(
      'H400_UNKNOWN_ACTION',
      { type: typeName, entity, action, valid: valid.join(', ') },
      { field: 'action', details: { valid_actions: valid } },
    );
  };
}
