import type { ContextStoreSource } from '../core/connector-type.js';

/** How a searchable field can be filtered: the operators and value types it accepts follow from this. */
export type FieldType = 'string' | 'date' | 'boolean' | 'array';

/** The searchable fields of one entity: the spec's top-level fields, properties.<name>, and array fields. */
export interface FieldCatalog {
  readonly fields: Readonly<Record<string, FieldType>>;
}

/** Top-level fields every entity has (the spec's searchable fields table). */
const TOP_LEVEL: Readonly<Record<string, FieldType>> = {
  id: 'string',
  archived: 'boolean',
  createdAt: 'date',
  updatedAt: 'date',
};

/** Builds the catalog of an entity from what its connector type declares. */
export function catalogFor(source: ContextStoreSource, entity: string): FieldCatalog {
  const fields: Record<string, FieldType> = { ...TOP_LEVEL };
  for (const p of source.propertyFields(entity)) fields[`properties.${p}`] = 'string';
  for (const a of source.arrayFields(entity)) fields[a] = 'array';
  return { fields };
}

/** The type of a searchable field, or undefined: own keys only, so "constructor" or "toString" is unknown. */
export function fieldTypeOf(catalog: FieldCatalog, field: string): FieldType | undefined {
  return Object.hasOwn(catalog.fields, field) ? catalog.fields[field] : undefined;
}

/** Scalar fields (everything but arrays): each gets one row per document in cs_values. */
export function scalarFields(catalog: FieldCatalog): string[] {
  return Object.entries(catalog.fields)
    .filter(([, t]) => t !== 'array')
    .map(([f]) => f);
}

/** Fields whose words go into the full-text index (fuzzy and keyword): strings, not dates or booleans. */
export function textFields(catalog: FieldCatalog): string[] {
  return Object.entries(catalog.fields)
    .filter(([, t]) => t === 'string')
    .map(([f]) => f);
}

/** Reads one field's value from a document by its searchable path: properties.<name> or a top-level key. */
export type FieldReader = (doc: Record<string, unknown>) => unknown;

/** Where a searchable field lives in a document: under `properties` (its name without the prefix) or at the top. */
function placeOf(field: string): { readonly property: boolean; readonly key: string } {
  const property = field.startsWith('properties.');
  return { property, key: property ? field.slice('properties.'.length) : field };
}

/**
 * The reader of a field, its key split off once: a build reads every field of every document, and a key
 * sliced anew for each read is a new string to hash for each property lookup.
 */
export function fieldReader(field: string): FieldReader {
  const { property, key } = placeOf(field);
  if (!property) return (doc) => doc[key];
  return (doc) => (doc.properties as Record<string, unknown> | null | undefined)?.[key];
}

/** A field and its reader. */
export interface ReadableField {
  readonly field: string;
  readonly read: FieldReader;
}

const readable = (field: string): ReadableField => ({ field, read: fieldReader(field) });

/** A field as searchableDoc copies it: its key, and whether it is under properties or an array. */
export interface CopiedField {
  readonly key: string;
  readonly property: boolean;
  readonly array: boolean;
}

/** A catalog's fields by how they are indexed: listed once for a whole build step, not per document. */
export interface IndexedFields {
  readonly scalar: readonly string[];
  readonly text: readonly string[];
  readonly array: readonly string[];
  /** The scalar and the text fields with their readers, in the order of those lists. */
  readonly scalarReads: readonly ReadableField[];
  readonly textReads: readonly ReadableField[];
  /** Every field of the catalog, in its order. */
  readonly copied: readonly CopiedField[];
}

export function indexedFields(catalog: FieldCatalog): IndexedFields {
  const entries = Object.entries(catalog.fields);
  const scalar = scalarFields(catalog);
  const text = textFields(catalog);
  return {
    scalar,
    text,
    array: entries.filter(([, t]) => t === 'array').map(([f]) => f),
    scalarReads: scalar.map(readable),
    textReads: text.map(readable),
    copied: entries.map(([f, t]) => ({ ...placeOf(f), array: t === 'array' })),
  };
}

/**
 * fieldReader's path in SQLite's JSON path syntax, for SQL that reads stored documents; null when the name
 * holds a character such a path cannot quote (a double quote or a backslash).
 */
export function jsonPathOf(field: string): string | null {
  const { property, key } = placeOf(field);
  return /["\\]/.test(key) ? null : `${property ? '$.properties' : '$'}."${key}"`;
}
