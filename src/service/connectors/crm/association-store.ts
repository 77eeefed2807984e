import type { Kysely } from 'kysely';
import { crmDb, type CrmAssociationRow } from './db.js';
import type { CoreTables } from '../../core/tables.js';

/** One end of an association. */
export interface RecordRef {
  readonly id: number;
  readonly type: string;
}

/**
 * Stores an association in both directions (typeId from a to b, inverseId from b to a). Idempotent:
 * existing rows are left alone. Returns true when something new was stored.
 */
export async function insertAssociation(
  trx: Kysely<CoreTables>,
  connectorId: string,
  a: RecordRef,
  b: RecordRef,
  category: string,
  typeId: number,
  inverseId: number,
): Promise<boolean> {
  const rows: CrmAssociationRow[] = [
    {
      connector_id: connectorId,
      from_id: a.id,
      from_type: a.type,
      to_id: b.id,
      to_type: b.type,
      category,
      type_id: typeId,
    },
    {
      connector_id: connectorId,
      from_id: b.id,
      from_type: b.type,
      to_id: a.id,
      to_type: a.type,
      category,
      type_id: inverseId,
    },
  ];
  const res = await crmDb(trx)
    .insertInto('crm_associations')
    .values(rows)
    .onConflict((oc) => oc.doNothing())
    .executeTakeFirst();
  return Number(res.numInsertedOrUpdatedRows ?? 0n) > 0;
}

/** Inserts many association rows (both directions already expanded), ignoring duplicates; for seed and fixtures. */
export async function insertAssociationRows(
  trx: Kysely<CoreTables>,
  rows: readonly CrmAssociationRow[],
): Promise<void> {
  // 7 columns per row; 500 rows stays far below SQLite's bound-parameter limit.
  for (let i = 0; i < rows.length; i += 500) {
    await crmDb(trx)
      .insertInto('crm_associations')
      .values(rows.slice(i, i + 500))
      .onConflict((oc) => oc.doNothing())
      .execute();
  }
}

/** Removes every association between two records, both directions; returns how many a→b types were removed. */
export async function deleteAssociationsBetween(
  trx: Kysely<CoreTables>,
  connectorId: string,
  a: RecordRef,
  b: RecordRef,
): Promise<number> {
  const forward = await crmDb(trx)
    .deleteFrom('crm_associations')
    .where('connector_id', '=', connectorId)
    .where('from_id', '=', a.id)
    .where('to_type', '=', b.type)
    .where('to_id', '=', b.id)
    .executeTakeFirst();
  await crmDb(trx)
    .deleteFrom('crm_associations')
    .where('connector_id', '=', connectorId)
    .where('from_id', '=', b.id)
    .where('to_type', '=', a.type)
    .where('to_id', '=', a.id)
    .execute();
  return Number(forward.numDeletedRows);
}

/** The association rows from some records to some target types, live targets only, ordered by from and to id. */
export async function associationsFrom(
  db: Kysely<CoreTables>,
  connectorId: string,
  fromIds: readonly number[],
  toTypes: readonly string[],
): Promise<CrmAssociationRow[]> {
  if (fromIds.length === 0 || toTypes.length === 0) return [];
  const out: CrmAssociationRow[] = [];
  for (let i = 0; i < fromIds.length; i += 500) {
    const rows = await crmDb(db)
      .selectFrom('crm_associations as a')
      .innerJoin('crm_records as r', (j) =>
        j.onRef('r.connector_id', '=', 'a.connector_id').onRef('r.id', '=', 'a.to_id'),
      )
      .selectAll('a')
      .where('a.connector_id', '=', connectorId)
      .where('a.from_id', 'in', fromIds.slice(i, i + 500))
      .where('a.to_type', 'in', toTypes)
      .where('r.archived', '=', 0)
      .orderBy('a.from_id')
      .orderBy('a.to_id')
      .orderBy('a.type_id')
      .execute();
    out.push(...rows);
  }
  return out;
}

/** One page of distinct live target ids of a record's associations to a type, from `fromToId` on (limit+1 rows). */
export async function associatedIdsPage(
  db: Kysely<CoreTables>,
  connectorId: string,
  fromId: number,
  toType: string,
  fromToId: number,
  limit: number,
): Promise<number[]> {
  const rows = await crmDb(db)
    .selectFrom('crm_associations as a')
    .innerJoin('crm_records as r', (j) =>
      j.onRef('r.connector_id', '=', 'a.connector_id').onRef('r.id', '=', 'a.to_id'),
    )
    .select('a.to_id')
    .distinct()
    .where('a.connector_id', '=', connectorId)
    .where('a.from_id', '=', fromId)
    .where('a.to_type', '=', toType)
    .where('a.to_id', '>=', fromToId)
    .where('r.archived', '=', 0)
    .orderBy('a.to_id')
    .limit(limit + 1)
    .execute();
  return rows.map((r) => r.to_id);
}

/** The association rows from one record to some target ids. */
export async function associationsBetween(
  db: Kysely<CoreTables>,
  connectorId: string,
  fromId: number,
  toType: string,
  toIds: readonly number[],
): Promise<CrmAssociationRow[]> {
  if (toIds.length === 0) return [];
  return crmDb(db)
    .selectFrom('crm_associations')
    .selectAll()
    .where('connector_id', '=', connectorId)
    .where('from_id', '=', fromId)
    .where('to_type', '=', toType)
    .where('to_id', 'in', toIds)
    .orderBy('to_id')
    .orderBy('type_id')
    .execute();
}
