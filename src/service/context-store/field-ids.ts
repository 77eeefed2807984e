import type { Kysely } from 'kysely';
import type { CoreTables } from '../core/tables.js';
import { csDb } from './tables.js';

/**
 * The numbers of an entity's fields in cs_fields: value rows name their field by it (sqlite-values.ts), so
 * the connector id, entity and field name are stored once per field instead of in every value row.
 */
export type FieldIds = ReadonlyMap<string, number>;

/** A field's number, or one no field has (its value rows are none) when the entity never indexed it. */
export function fidOf(fids: FieldIds, field: string): number {
  return fids.get(field) ?? -1;
}

/** The numbers of an entity's fields indexed so far. */
export async function readFieldIds(db: Kysely<CoreTables>, connectorId: string, entity: string): Promise<FieldIds> {
  const rows = await csDb(db)
    .selectFrom('cs_fields')
    .select(['field', 'fid'])
    .where('connector_id', '=', connectorId)
    .where('entity', '=', entity)
    .execute();
  return new Map(rows.map((r) => [r.field, r.fid]));
}

/**
 * The numbers of `fields` (with every other field of the entity), numbering those seen for the first time.
 * Every build step and every applied change asks, so the usual answer (all numbered) is one read.
 */
export async function numberFields(
  trx: Kysely<CoreTables>,
  connectorId: string,
  entity: string,
  fields: readonly string[],
): Promise<FieldIds> {
  const known = await readFieldIds(trx, connectorId, entity);
  const missing = fields.filter((field) => !known.has(field));
  if (missing.length === 0) return known;
  await csDb(trx)
    .insertInto('cs_fields')
    .values(missing.map((field) => ({ connector_id: connectorId, entity, field })))
    .onConflict((oc) => oc.doNothing())
    .execute();
  return readFieldIds(trx, connectorId, entity);
}
