import type { Kysely } from 'kysely';
import { v3TypeName } from './association-types.js';
import { associationsFrom } from './association-store.js';
import { readHistory } from './history-store.js';
import { resolveObjectType, type ObjectType } from './object-types.js';
import type { StoredRecord } from './records-store.js';
import type { CoreTables } from '../../core/tables.js';
import { ownValue } from '../../core/own.js';

/** What a read asks for beyond the record itself. */
export interface ReadShape {
  /** Requested property names (null = the type's defaults). */
  readonly properties: readonly string[] | null;
  readonly propertiesWithHistory: readonly string[] | null;
  /** Raw association type references; unknown ones are ignored. */
  readonly associations: readonly string[] | null;
}

/** Splits a comma separated params value ("a, b,c") into names; undefined or blank → null. */
export function splitList(value: unknown): string[] | null {
  if (typeof value !== 'string') return Array.isArray(value) ? value.map(String) : null;
  const names = value
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s.length > 0);
  return names.length > 0 ? names : null;
}

/** The properties object of a record for a read: requested names (null when empty) plus the bookkeeping trio, or the defaults. */
export function selectProperties(type: ObjectType, rec: StoredRecord, shape: ReadShape): Record<string, string | null> {
  const out: Record<string, string | null> = {};
  const requested = [...(shape.properties ?? []), ...(shape.propertiesWithHistory ?? [])].filter((n) =>
    type.known.has(n),
  );
  if (shape.properties === null && shape.propertiesWithHistory === null) {
    // Filled in sorted order: the same object sortKeys would give, without sorting per record.
    for (const name of type.sortedDefaults) {
      const v = ownValue(rec.properties, name);
      if (v !== undefined) out[name] = v;
    }
    return out;
  }
  // Requested names come from the request: own properties only ("constructor" is null like any unknown name).
  for (const name of requested) out[name] = ownValue(rec.properties, name) ?? null;
  for (const name of ['hs_object_id', type.createDateProp, type.modifiedDateProp])
    out[name] = ownValue(rec.properties, name) ?? null;
  return sortKeys(out);
}

const byCodeUnit = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

function sortKeys<T>(o: Record<string, T>): Record<string, T> {
  return Object.fromEntries(Object.entries(o).sort(([a], [b]) => byCodeUnit(a, b)));
}

/** Renders records as the spec's record objects, with history and v3 associations when asked. */
export async function renderRecords(
  db: Kysely<CoreTables>,
  connectorId: string,
  type: ObjectType,
  records: readonly StoredRecord[],
  shape: ReadShape,
): Promise<Record<string, unknown>[]> {
  const withHistory = (shape.propertiesWithHistory ?? []).filter((n) => type.known.has(n));
  const history =
    shape.propertiesWithHistory !== null
      ? await readHistory(db, connectorId, records, withHistory, type.modifiedDateProp)
      : null;
  const assoc = shape.associations ? await readAssociations(db, connectorId, type, records, shape.associations) : null;
  return records.map((rec) => {
    const out: Record<string, unknown> = {
      id: String(rec.id),
      properties: selectProperties(type, rec, shape),
      createdAt: rec.createdAt,
      updatedAt: rec.updatedAt,
      archived: rec.archived,
    };
    if (rec.archived) out.archivedAt = rec.archivedAt;
    if (history) out.propertiesWithHistory = history.get(rec.id) ?? {};
    if (assoc) {
      const a = assoc.get(rec.id);
      if (a && Object.keys(a).length > 0) out.associations = a;
    }
    return out;
  });
}

type V3Associations = Record<string, { results: { id: string; type: string }[] }>;

async function readAssociations(
  db: Kysely<CoreTables>,
  connectorId: string,
  type: ObjectType,
  records: readonly StoredRecord[],
  refs: readonly string[],
): Promise<Map<number, V3Associations>> {
  const targets = new Map<string, { type: ObjectType; key: string }>();
  for (const ref of refs) {
    const t = await resolveObjectType(db, connectorId, ref);
    // The v3 map is keyed by the plural name for standard types and by the reference given for custom ones.
    if (t && !targets.has(t.key)) targets.set(t.key, { type: t, key: t.entity ? t.key : ref });
  }
  const rows = await associationsFrom(
    db,
    connectorId,
    records.map((r) => r.id),
    [...targets.keys()],
  );
  const out = new Map<number, V3Associations>();
  for (const row of rows) {
    const target = targets.get(row.to_type)!;
    let perRecord = out.get(row.from_id);
    if (!perRecord) out.set(row.from_id, (perRecord = {}));
    const list = (perRecord[target.key] ??= { results: [] });
    list.results.push({ id: String(row.to_id), type: v3TypeName(type, target.type, row.category, row.type_id) });
  }
  return out;
}
