/** A scalar a condition compares with. */
export type Scalar = string | number | boolean;

/** A parsed, validated filter condition (fields already checked against the entity's catalog). */
export type Cond =
  | { kind: 'and'; items: Cond[] }
  | { kind: 'or'; items: Cond[] }
  | { kind: 'not'; item: Cond }
  | { kind: 'compare'; op: 'eq' | 'neq' | 'gt' | 'gte' | 'lt' | 'lte'; field: string; value: Scalar | null }
  | { kind: 'in'; field: string; values: Scalar[] }
  /** Made by normalize.ts from several gt/gte/lt/lte on one field in one AND: one index range scan. */
  | { kind: 'range'; field: string; bounds: { op: 'gt' | 'gte' | 'lt' | 'lte'; value: string | number }[] }
  | { kind: 'like'; field: string; value: string }
  | { kind: 'fuzzy' | 'keyword'; field: string; words: string[] }
  | { kind: 'contains'; field: string; value: Scalar }
  | { kind: 'any'; field: string; cond: Cond };

/** One sort key: a scalar field and its direction. */
export interface SortKey {
  field: string;
  dir: 'asc' | 'desc';
}

/** Every operator of the filter language. */
export const OPERATORS = [
  'eq',
  'neq',
  'gt',
  'gte',
  'lt',
  'lte',
  'in',
  'like',
  'fuzzy',
  'keyword',
  'contains',
  'any',
  'not',
  'and',
  'or',
] as const;
