import type { ContextStoreSource } from '../core/connector-type.js';
import { catalogFor, type FieldType } from '../context-store/fields.js';

const OPERATORS_BY_TYPE: Record<FieldType, string> = {
  string: 'eq, neq, gt, gte, lt, lte, in, like, fuzzy, keyword',
  date: 'eq, neq, gt, gte, lt, lte, in, like',
  boolean: 'eq, neq, in',
  array: 'contains, any',
};

/** Rows [field, type, operators] of an entity's searchable fields, from the same catalog the search validates with. */
export function searchableFieldRows(source: ContextStoreSource, entity: string): string[][] {
  const catalog = catalogFor(source, entity);
  return Object.entries(catalog.fields).map(([field, type]) => [field, type, OPERATORS_BY_TYPE[type]]);
}
