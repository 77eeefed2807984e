import { CompiledQuery, sql, type Kysely } from 'kysely';
import { crmDb, type CrmRecordRow } from './db.js';
import type { CoreTables } from '../../core/tables.js';

/** A record as read from crm_records, properties parsed. */
export interface StoredRecord {
  readonly id: number;
  readonly type: string;
  readonly properties: Record<string, string>;
  readonly createdAt: string;
  readonly updatedAt: string;
  readonly archived: boolean;
  readonly archivedAt: string | null;
}

/** The columns a record is read from (rowToRecord): not the connector id nor the email key. */
export type RecordColumns = Pick<
  CrmRecordRow,
  'id' | 'object_type' | 'properties' | 'created_at' | 'updated_at' | 'archived' | 'archived_at'
>;

/** Parses one crm_records row. */
export function rowToRecord(row: RecordColumns): StoredRecord {
  return {
    id: row.id,
    type: row.object_type,
    properties: JSON.parse(row.properties) as Record<string, string>,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    archived: row.archived === 1,
    archivedAt: row.archived_at,
  };
}

/** The row to insert for a record (email_key only for contacts). */
export function recordToRow(connectorId: string, r: StoredRecord): CrmRecordRow {
  const email = r.type === 'contacts' ? r.properties.email : undefined;
  return {
    connector_id: connectorId,
    id: r.id,
    object_type: r.type,
    properties: JSON.stringify(r.properties),
    created_at: r.createdAt,
    updated_at: r.updatedAt,
    archived: r.archived ? 1 : 0,
    archived_at: r.archivedAt,
    email_key: email ? email.toLowerCase() : null,
  };
}

/**
 * Reserves `count` consecutive record ids of a connector and returns the first. Call inside the write
 * transaction: a rolled-back write gives its ids back, and a seed that reserves a block up front can
 * write it over many transactions while API writes take ids after the block.
 */
export async function reserveRecordIds(trx: Kysely<CoreTables>, connectorId: string, count = 1): Promise<number> {
  const db = crmDb(trx);
  const row = await db
    .selectFrom('crm_id_sequence')
    .select('next_id')
    .where('connector_id', '=', connectorId)
    .executeTakeFirst();
  let first = row?.next_id;
  if (first === undefined) {
    const max = await db
      .selectFrom('crm_records')
      .select(sql<number | null>`max(id)`.as('max'))
      .where('connector_id', '=', connectorId)
      .executeTakeFirst();
    first = (max?.max ?? 0) + 1;
    await db
      .insertInto('crm_id_sequence')
      .values({ connector_id: connectorId, next_id: first + count })
      .execute();
  } else {
    await db
      .updateTable('crm_id_sequence')
      .set({ next_id: first + count })
      .where('connector_id', '=', connectorId)
      .execute();
  }
  return first;
}

/** Moves the sequence past an id given explicitly (fixtures). */
export async function advanceRecordIds(trx: Kysely<CoreTables>, connectorId: string, nextFree: number): Promise<void> {
  const first = await reserveRecordIds(trx, connectorId, 0);
  if (nextFree > first)
    await crmDb(trx)
      .updateTable('crm_id_sequence')
      .set({ next_id: nextFree })
      .where('connector_id', '=', connectorId)
      .execute();
}

/**
 * Reads one record of a type. archived: false = live only, true = archived only (the spec's
 * "archived=true reads only archived"), 'any' = both.
 */
export async function getRecord(
  db: Kysely<CoreTables>,
  connectorId: string,
  type: string,
  id: number,
  archived: boolean | 'any',
): Promise<StoredRecord | null> {
  const query =
    archived === 'any'
      ? CompiledQuery.raw(GET_RECORD, [connectorId, id, type])
      : CompiledQuery.raw(GET_RECORD_BY_ARCHIVED, [connectorId, id, type, archived ? 1 : 0]);
  const { rows } = await db.executeQuery<RecordColumns>(query);
  return rows[0] ? rowToRecord(rows[0]) : null;
}

/**
 * The get-by-id query per archived mode, written once: building and compiling it with Kysely on every
 * execute get was a visible share of the service's CPU under load. "?" placeholders are SQLite's (as in
 * bulk-insert.ts, the other place that writes SQL text); the store's statement cache keeps them prepared.
 */
/** The columns of RecordColumns: materialising fewer columns was a third of a 100-record page's read time. */
const RECORD_COLUMNS = 'id, object_type, properties, created_at, updated_at, archived, archived_at';
const GET_RECORD = `select ${RECORD_COLUMNS} from "crm_records" where "connector_id" = ? and "id" = ? and "object_type" = ?`;
const GET_RECORD_BY_ARCHIVED = `${GET_RECORD} and "archived" = ?`;

/** Reads a record of any type by id (live only unless asked). */
export async function getAnyRecord(
  db: Kysely<CoreTables>,
  connectorId: string,
  id: number,
  includeArchived = false,
): Promise<StoredRecord | null> {
  let q = crmDb(db).selectFrom('crm_records').selectAll().where('connector_id', '=', connectorId).where('id', '=', id);
  if (!includeArchived) q = q.where('archived', '=', 0);
  const row = await q.executeTakeFirst();
  return row ? rowToRecord(row) : null;
}

/** Reads many records by id (any type, archived included), in id order. */
export async function getRecordsByIds(
  db: Kysely<CoreTables>,
  connectorId: string,
  ids: readonly number[],
): Promise<StoredRecord[]> {
  const out: StoredRecord[] = [];
  for (let i = 0; i < ids.length; i += 500) {
    const rows = await crmDb(db)
      .selectFrom('crm_records')
      .selectAll()
      .where('connector_id', '=', connectorId)
      .where('id', 'in', ids.slice(i, i + 500))
      .execute();
    out.push(...rows.map(rowToRecord));
  }
  return out.sort((a, b) => a.id - b.id);
}

/** The id of the contact holding an email (case-insensitive), if any. */
export async function findContactByEmail(
  db: Kysely<CoreTables>,
  connectorId: string,
  email: string,
): Promise<number | null> {
  const row = await crmDb(db)
    .selectFrom('crm_records')
    .select('id')
    .where('connector_id', '=', connectorId)
    .where('email_key', '=', email.toLowerCase())
    .executeTakeFirst();
  return row?.id ?? null;
}

/** Path for json_extract of a property, or null when the name cannot be written safely as a JSON path. */
export function jsonPath(property: string): string | null {
  return /^[A-Za-z0-9_.-]+$/.test(property) ? `$."${property}"` : null;
}

/**
 * Finds records of a type whose property equals a value (case-insensitive), for idProperty on custom
 * unique properties. The path is bound as a parameter, never written into the SQL text.
 */
export async function findByProperty(
  db: Kysely<CoreTables>,
  connectorId: string,
  type: string,
  property: string,
  value: string,
  archived: boolean,
): Promise<StoredRecord | null> {
  const path = jsonPath(property);
  if (!path) return null;
  const row = await crmDb(db)
    .selectFrom('crm_records')
    .selectAll()
    .where('connector_id', '=', connectorId)
    .where('object_type', '=', type)
    .where('archived', '=', archived ? 1 : 0)
    .where(sql`lower(json_extract(properties, ${path}))`, '=', value.toLowerCase())
    .orderBy('id')
    .executeTakeFirst();
  return row ? rowToRecord(row) : null;
}

/** One page of records of a type in id order, from `fromId` on; returns limit+1 rows so the caller sees if more exist. */
export async function listPage(
  db: Kysely<CoreTables>,
  connectorId: string,
  type: string,
  archived: boolean,
  fromId: number,
  limit: number,
): Promise<StoredRecord[]> {
  // Written once like GET_RECORD: the list is the service's busiest read after get. The type and the archived
  // flag are known, so only what differs per record is read (each column costs per row: 7 columns took ~60%
  // longer than 4 to read a 100-record page).
  const { rows } = await db.executeQuery<
    Pick<CrmRecordRow, 'id' | 'properties' | 'created_at' | 'updated_at' | 'archived_at'>
  >(CompiledQuery.raw(archived ? LIST_ARCHIVED_PAGE : LIST_PAGE, [connectorId, type, fromId, limit + 1]));
  return rows.map((row) => ({
    id: row.id,
    type,
    properties: JSON.parse(row.properties) as Record<string, string>,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    archived,
    archivedAt: archived ? row.archived_at : null,
  }));
}

const LIST_ORDER = 'and "id" >= ? order by "id" limit ?';
const LIST_PAGE = `select id, properties, created_at, updated_at from "crm_records" where "connector_id" = ? and "object_type" = ? and "archived" = 0 ${LIST_ORDER}`;
const LIST_ARCHIVED_PAGE = `select id, properties, created_at, updated_at, archived_at from "crm_records" where "connector_id" = ? and "object_type" = ? and "archived" = 1 ${LIST_ORDER}`;

/** Inserts records in multi-row batches (used by create, seed and fixtures, always inside a transaction). */
export async function insertRecords(
  trx: Kysely<CoreTables>,
  connectorId: string,
  records: readonly StoredRecord[],
): Promise<void> {
  // 9 columns per row; 400 rows stays far below SQLite's bound-parameter limit.
  for (let i = 0; i < records.length; i += 400) {
    await crmDb(trx)
      .insertInto('crm_records')
      .values(records.slice(i, i + 400).map((r) => recordToRow(connectorId, r)))
      .execute();
  }
}

/** Rewrites a record's mutable columns. */
export async function saveRecord(trx: Kysely<CoreTables>, connectorId: string, r: StoredRecord): Promise<void> {
  const row = recordToRow(connectorId, r);
  await crmDb(trx)
    .updateTable('crm_records')
    .set({
      properties: row.properties,
      updated_at: row.updated_at,
      archived: row.archived,
      archived_at: row.archived_at,
      email_key: row.email_key,
    })
    .where('connector_id', '=', connectorId)
    .where('id', '=', r.id)
    .execute();
}
