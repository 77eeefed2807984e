import type { Kysely } from 'kysely';
import type { FieldCatalog } from './fields.js';
import type { CoreTables } from '../core/tables.js';
import { csDb } from './tables.js';

/** Readiness of one entity's index, lowest first. */
export const STATUSES = ['Loading', 'Building Preview', 'Preview', 'Ready'] as const;
export type ContextStoreStatus = (typeof STATUSES)[number];

/** True when context_store_search may answer for an entity in this status. */
export function isSearchable(status: ContextStoreStatus): boolean {
  return status === 'Preview' || status === 'Ready';
}

/** The lowest of several statuses (a connector is as ready as its least ready entity). */
export function lowestStatus(statuses: readonly ContextStoreStatus[]): ContextStoreStatus | null {
  if (statuses.length === 0) return null;
  return statuses.reduce((a, b) => (STATUSES.indexOf(a) <= STATUSES.indexOf(b) ? a : b));
}

/** The persisted state of one entity's index (table cs_state). */
export interface EntityState {
  connectorId: string;
  entity: string;
  status: ContextStoreStatus;
  /** Last scan key returned by the source; the build resumes after it. */
  scanAfter: string | null;
  scanned: number;
  catalog: FieldCatalog;
  updatedAt: string;
}

interface StateRow {
  connector_id: string;
  entity: string;
  status: string;
  scan_after: string | null;
  scanned: number;
  fields: string;
  started_at: string;
  updated_at: string;
  ready_at: string | null;
}

function toState(r: StateRow): EntityState {
  return {
    connectorId: r.connector_id,
    entity: r.entity,
    status: (STATUSES as readonly string[]).includes(r.status) ? (r.status as ContextStoreStatus) : 'Loading',
    scanAfter: r.scan_after,
    scanned: Number(r.scanned),
    catalog: JSON.parse(r.fields) as FieldCatalog,
    updatedAt: r.updated_at,
  };
}

/** The states of a connector's entities (only those the indexer has registered). */
export async function readStates(db: Kysely<CoreTables>, connectorId: string): Promise<EntityState[]> {
  const rows = (await csDb(db)
    .selectFrom('cs_state')
    .selectAll()
    .where('connector_id', '=', connectorId)
    .execute()) as StateRow[];
  return rows.map(toState);
}

/** The state of one entity, or undefined before the indexer registered it (which reads as Loading). */
export async function readState(
  db: Kysely<CoreTables>,
  connectorId: string,
  entity: string,
): Promise<EntityState | undefined> {
  const row = (await csDb(db)
    .selectFrom('cs_state')
    .selectAll()
    .where('connector_id', '=', connectorId)
    .where('entity', '=', entity)
    .executeTakeFirst()) as StateRow | undefined;
  return row && toState(row);
}

/**
 * Registers an entity in Loading (no-op when already known with the same field catalog). When the catalog
 * changed (a connector type gained a searchable field), the entity is rebuilt from the start.
 */
export async function registerEntity(
  db: Kysely<CoreTables>,
  connectorId: string,
  entity: string,
  catalog: FieldCatalog,
  now: string,
): Promise<void> {
  const fields = JSON.stringify(catalog);
  const existing = (await csDb(db)
    .selectFrom('cs_state')
    .select('fields')
    .where('connector_id', '=', connectorId)
    .where('entity', '=', entity)
    .executeTakeFirst()) as { fields: string } | undefined;
  if (!existing) {
    await csDb(db)
      .insertInto('cs_state')
      .values({
        connector_id: connectorId,
        entity,
        status: 'Loading',
        scan_after: null,
        scanned: 0,
        fields,
        started_at: now,
        updated_at: now,
        ready_at: null,
      })
      .onConflict((oc) => oc.columns(['connector_id', 'entity']).doNothing())
      .execute();
  } else if (existing.fields !== fields) {
    await csDb(db)
      .updateTable('cs_state')
      .set({
        status: 'Loading',
        scan_after: null,
        scanned: 0,
        fields,
        started_at: now,
        updated_at: now,
        ready_at: null,
      })
      .where('connector_id', '=', connectorId)
      .where('entity', '=', entity)
      .execute();
  }
}

/** Saves build progress (inside the batch's transaction, so the index and its state never disagree). */
export async function saveProgress(
  trx: Kysely<CoreTables>,
  s: { connectorId: string; entity: string; status: ContextStoreStatus; scanAfter: string | null; scanned: number },
  now: string,
): Promise<void> {
  await csDb(trx)
    .updateTable('cs_state')
    .set({
      status: s.status,
      scan_after: s.scanAfter,
      scanned: s.scanned,
      updated_at: now,
      ...(s.status === 'Ready' ? { ready_at: now } : {}),
    })
    .where('connector_id', '=', s.connectorId)
    .where('entity', '=', s.entity)
    .execute();
}

/** Number of documents indexed for an entity (inspect's entity_count). */
export async function countDocs(db: Kysely<CoreTables>, connectorId: string, entity: string): Promise<number> {
  const r = (await csDb(db)
    .selectFrom('cs_docs')
    .select((eb) => eb.fn.countAll().as('n'))
    .where('connector_id', '=', connectorId)
    .where('entity', '=', entity)
    .executeTakeFirstOrThrow()) as { n: number };
  return Number(r.n);
}
