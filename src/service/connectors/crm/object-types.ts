import type { Kysely } from 'kysely';
import { crmDb } from './db.js';
import type { CustomSchema } from './custom-schema.js';
import {
  ENTITIES,
  RECORD_ENTITIES,
  knownProperties,
  type EntitySpec,
  type PropertyKind,
  type RecordEntity,
} from './entities.js';
import type { CoreTables } from '../../core/tables.js';

/** What the record code needs to know about an object type, standard or custom. */
export interface ObjectType {
  /** The object_type column value: the entity name ("contacts") or the custom type id ("2-1"). */
  readonly key: string;
  readonly typeId: string;
  /** Singular name for association type names ("contact", or the custom schema's name). */
  readonly singular: string;
  readonly entity: EntitySpec | null;
  readonly schema: CustomSchema | null;
  readonly createDateProp: string;
  readonly modifiedDateProp: string;
  readonly defaultProperties: readonly string[];
  /** defaultProperties deduplicated and sorted by code unit, once (key sorting was ~3% of a list's CPU). */
  readonly sortedDefaults: readonly string[];
  /** Names a read may return; other requested names are ignored. */
  readonly known: ReadonlySet<string>;
  readonly kinds: Readonly<Record<string, PropertyKind>>;
  /** Properties usable as idProperty (besides the internal id). */
  readonly uniqueProperties: readonly string[];
  readonly queryProperties: readonly string[];
}

function buildStandardType(name: RecordEntity): ObjectType {
  const e = ENTITIES[name];
  return {
    key: name,
    typeId: e.typeId,
    singular: e.singular,
    entity: e,
    schema: null,
    createDateProp: e.createDateProp,
    modifiedDateProp: e.modifiedDateProp,
    defaultProperties: e.defaultProperties,
    sortedDefaults: sortedNames(e.defaultProperties),
    known: knownProperties(e),
    kinds: { ...e.kinds, [e.createDateProp]: 'datetime', [e.modifiedDateProp]: 'datetime', hs_object_id: 'integer' },
    uniqueProperties: name === 'contacts' ? ['hs_object_id', 'email'] : ['hs_object_id'],
    queryProperties: e.queryProperties,
  };
}

const byCodeUnit = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

function sortedNames(names: readonly string[]): readonly string[] {
  return [...new Set(names)].sort(byCodeUnit);
}

/** The ObjectType of every standard entity, built once at load (they never change). */
const STANDARD_TYPES: Readonly<Record<RecordEntity, ObjectType>> = Object.freeze(
  Object.fromEntries(RECORD_ENTITIES.map((name) => [name, buildStandardType(name)])) as Record<
    RecordEntity,
    ObjectType
  >,
);

/** The ObjectType of a standard entity. */
export function standardType(name: RecordEntity): ObjectType {
  return STANDARD_TYPES[name];
}

/** The ObjectType of a custom object schema. */
export function customType(s: CustomSchema): ObjectType {
  const kinds: Record<string, PropertyKind> = {
    hs_createdate: 'datetime',
    hs_lastmodifieddate: 'datetime',
    hs_object_id: 'integer',
  };
  for (const p of s.properties) {
    if (p.type === 'number') kinds[p.name] = 'number';
    else if (p.type === 'date' || p.type === 'datetime') kinds[p.name] = 'datetime';
  }
  return {
    key: s.objectTypeId,
    typeId: s.objectTypeId,
    singular: s.name,
    entity: null,
    schema: s,
    createDateProp: 'hs_createdate',
    modifiedDateProp: 'hs_lastmodifieddate',
    defaultProperties: ['hs_createdate', 'hs_lastmodifieddate', 'hs_object_id'],
    sortedDefaults: ['hs_createdate', 'hs_lastmodifieddate', 'hs_object_id'],
    known: new Set([...s.properties.map((p) => p.name), 'hs_createdate', 'hs_lastmodifieddate', 'hs_object_id']),
    kinds,
    uniqueProperties: ['hs_object_id', ...s.properties.filter((p) => p.hasUniqueValue).map((p) => p.name)],
    queryProperties: s.searchableProperties,
  };
}

/** Parses a crm_schemas row into a CustomSchema. */
export function schemaFromRow(row: {
  id: number;
  name: string;
  fully_qualified_name: string;
  definition: string;
  archived: number;
  created_at: string;
  updated_at: string;
}): CustomSchema {
  const def = JSON.parse(row.definition) as Omit<
    CustomSchema,
    'id' | 'objectTypeId' | 'name' | 'fullyQualifiedName' | 'archived' | 'createdAt' | 'updatedAt'
  >;
  return {
    ...def,
    id: row.id,
    objectTypeId: `2-${row.id}`,
    name: row.name,
    fullyQualifiedName: row.fully_qualified_name,
    archived: row.archived === 1,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

/** Every custom schema of a connector (archived ones only when asked). */
export async function listSchemas(
  db: Kysely<CoreTables>,
  connectorId: string,
  archived: boolean,
): Promise<CustomSchema[]> {
  const rows = await crmDb(db)
    .selectFrom('crm_schemas')
    .selectAll()
    .where('connector_id', '=', connectorId)
    .where('archived', '=', archived ? 1 : 0)
    .orderBy('id')
    .execute();
  return rows.map(schemaFromRow);
}

/** Finds a custom schema by "2-<id>", fullyQualifiedName, "p_<name>" or bare name. */
export async function findSchema(
  db: Kysely<CoreTables>,
  connectorId: string,
  ref: string,
): Promise<CustomSchema | null> {
  const q = crmDb(db).selectFrom('crm_schemas').selectAll().where('connector_id', '=', connectorId);
  const m = /^2-(\d+)$/.exec(ref);
  let row;
  if (m) row = await q.where('id', '=', Number(m[1])).executeTakeFirst();
  else if (/^p\d+_/.test(ref)) row = await q.where('fully_qualified_name', '=', ref).executeTakeFirst();
  else row = await q.where('name', '=', ref.startsWith('p_') ? ref.slice(2) : ref).executeTakeFirst();
  return row ? schemaFromRow(row) : null;
}

/** Maps a standard type reference (plural, singular or "0-n") to the entity name. */
export function standardEntityOf(ref: string): RecordEntity | null {
  const lower = ref.toLowerCase();
  for (const name of RECORD_ENTITIES) {
    const e = ENTITIES[name];
    if (lower === name || lower === e.singular || ref === e.typeId) return name;
  }
  return null;
}

/** Resolves any object type reference (standard or custom); null when unknown. */
export async function resolveObjectType(
  db: Kysely<CoreTables>,
  connectorId: string,
  ref: string,
): Promise<ObjectType | null> {
  const std = standardEntityOf(ref);
  if (std) return standardType(std);
  const schema = await findSchema(db, connectorId, ref);
  return schema && !schema.archived ? customType(schema) : null;
}

/** Resolves an object_type column value (entity name or "2-n") back to its ObjectType. */
export async function typeOfKey(db: Kysely<CoreTables>, connectorId: string, key: string): Promise<ObjectType | null> {
  const std = standardEntityOf(key);
  if (std) return standardType(std);
  const schema = await findSchema(db, connectorId, key);
  return schema ? customType(schema) : null;
}
