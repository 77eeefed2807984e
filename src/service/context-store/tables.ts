import type { Generated, Kysely } from 'kysely';
import type { CoreTables } from '../core/tables.js';

/** The context store's own tables (created by migrations.ts); see there for what each holds. */
export type ContextStoreTables = {
  cs_state: {
    connector_id: string;
    entity: string;
    status: string;
    scan_after: string | null;
    scanned: number;
    /** The entity's field catalog as JSON. */
    fields: string;
    started_at: string;
    updated_at: string;
    ready_at: string | null;
  };
  cs_docs: { rowid: Generated<number>; connector_id: string; entity: string; id: string; doc: string };
  /** One number per (connector, entity, field) with values: cs_values names its field by it. */
  cs_fields: { fid: Generated<number>; connector_id: string; entity: string; field: string };
  /** `doc` is the document's cs_docs rowid, `fid` its field's cs_fields number (sqlite-values.ts). */
  cs_values: {
    doc: number;
    fid: number;
    kind: number;
    num: number;
    text: string;
  };
  cs_array_values: {
    connector_id: string;
    entity: string;
    field: string;
    id: string;
    pos: number;
    subfield: string;
    kind: number;
    num: number;
    text: string;
  };
  cs_outbox: { seq: Generated<number>; connector_id: string; entity: string; record_id: string };
};

/** A store handle (or transaction) that knows the context store's tables besides the core ones. */
export type ContextStoreDb = Kysely<CoreTables & ContextStoreTables>;

/** Widens a store handle (or transaction) to the context store's tables. */
export function csDb(db: Kysely<CoreTables>): ContextStoreDb {
  return db.withTables<ContextStoreTables>();
}
