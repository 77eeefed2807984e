import { sql, type ColumnDefinitionBuilder, type Kysely } from 'kysely';
import { textFields, type FieldCatalog } from './fields.js';
import {
  createLikeTable,
  createLikeTableV1,
  createLikeTableV2,
  LIKE_FIELDS_PER_DOC_V2,
  LIKE_SEPARATOR,
} from './sqlite-like.js';
import { fieldToken } from './words.js';
import type { Migration } from '../core/store.js';
import { createFtsTable } from './sqlite-fts.js';
import { createValuesTable, createValuesTableV2 } from './sqlite-values.js';
import type { ContextStoreTables } from './tables.js';

/**
 * Empties the derived tables of every entity (documents, array values, full text) and sets every entity back
 * to Loading: each is rebuilt from its connector on the next start. For a migration that changes the layout
 * of the value table, after it recreated that table.
 */
async function rebuildEveryEntity(db: Kysely<object>): Promise<void> {
  const cs = db.withTables<ContextStoreTables>();
  await cs.deleteFrom('cs_array_values').execute();
  await cs.deleteFrom('cs_docs').execute();
  await db.schema.dropTable('cs_fts').execute();
  await createFtsTable(db);
  await cs.updateTable('cs_state').set({ status: 'Loading', scan_after: null, scanned: 0, ready_at: null }).execute();
}

/**
 * The context store's own tables: readiness per (connector, entity), the indexed documents, a key/value
 * table for eq/in/range/sort on scalar fields, one for array elements, and the full-text index.
 */
export const contextStoreMigrations: readonly Migration[] = [
  {
    name: '030-context-store-tables',
    async up(db: Kysely<object>): Promise<void> {
      const connectorFk = (c: ColumnDefinitionBuilder) => c.notNull().references('connectors.id').onDelete('cascade');
      await db.schema
        .createTable('cs_state')
        .addColumn('connector_id', 'text', connectorFk)
        .addColumn('entity', 'text', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('scan_after', 'text')
        .addColumn('scanned', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('fields', 'text', (c) => c.notNull())
        .addColumn('started_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .addColumn('ready_at', 'text')
        .addPrimaryKeyConstraint('cs_state_pk', ['connector_id', 'entity'])
        .execute();
      await db.schema
        .createTable('cs_docs')
        .addColumn('rowid', 'integer', (c) => c.primaryKey().autoIncrement())
        .addColumn('connector_id', 'text', connectorFk)
        .addColumn('entity', 'text', (c) => c.notNull())
        .addColumn('id', 'text', (c) => c.notNull())
        .addColumn('doc', 'text', (c) => c.notNull())
        .addUniqueConstraint('cs_docs_key', ['connector_id', 'entity', 'id'])
        .execute();
      // kind: 0 number (numeric strings, booleans as 1/0), 1 text, 2 null. num and text are never NULL so that
      // (kind, num, text, id) is a total order usable for keyset cursors.
      await db.schema
        .createTable('cs_values')
        .addColumn('connector_id', 'text', connectorFk)
        .addColumn('entity', 'text', (c) => c.notNull())
        .addColumn('field', 'text', (c) => c.notNull())
        .addColumn('id', 'text', (c) => c.notNull())
        .addColumn('kind', 'integer', (c) => c.notNull())
        .addColumn('num', 'real', (c) => c.notNull())
        .addColumn('text', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('cs_values_doc')
        .on('cs_values')
        .columns(['connector_id', 'entity', 'id', 'field'])
        .execute();
      await db.schema
        .createIndex('cs_values_text')
        .on('cs_values')
        .columns(['connector_id', 'entity', 'field', 'text'])
        .execute();
      await db.schema
        .createIndex('cs_values_sort')
        .on('cs_values')
        .columns(['connector_id', 'entity', 'field', 'kind', 'num', 'text', 'id'])
        .execute();
      await db.schema
        .createTable('cs_array_values')
        .addColumn('connector_id', 'text', connectorFk)
        .addColumn('entity', 'text', (c) => c.notNull())
        .addColumn('field', 'text', (c) => c.notNull())
        .addColumn('id', 'text', (c) => c.notNull())
        .addColumn('pos', 'integer', (c) => c.notNull())
        .addColumn('subfield', 'text', (c) => c.notNull())
        .addColumn('kind', 'integer', (c) => c.notNull())
        .addColumn('num', 'real', (c) => c.notNull())
        .addColumn('text', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('cs_array_values_doc')
        .on('cs_array_values')
        .columns(['connector_id', 'entity', 'id', 'field', 'pos'])
        .execute();
      await db.schema
        .createIndex('cs_array_values_text')
        .on('cs_array_values')
        .columns(['connector_id', 'entity', 'field', 'subfield', 'text'])
        .execute();
    },
  },
  { name: '031-context-store-fts', up: createFtsTable },
  {
    // A covering index (text, kind, id) lets eq/in/range on text answer from the index alone.
    name: '032-context-store-text-index',
    async up(db: Kysely<object>): Promise<void> {
      await db.schema.dropIndex('cs_values_text').ifExists().execute();
      await db.schema
        .createIndex('cs_values_text_cover')
        .on('cs_values')
        .columns(['connector_id', 'entity', 'field', 'text', 'kind', 'id'])
        .execute();
    },
  },
  {
    // Probing one document's value must answer from one index, or the planner prefers a covering value index.
    name: '033-context-store-doc-index',
    async up(db: Kysely<object>): Promise<void> {
      await db.schema.dropIndex('cs_values_doc').ifExists().execute();
      await db.schema
        .createIndex('cs_values_doc_cover')
        .on('cs_values')
        .columns(['connector_id', 'entity', 'id', 'field', 'kind', 'num', 'text'])
        .execute();
    },
  },
  {
    // The compact value table (see sqlite-values.ts). Indexes are derived data: they are dropped and
    // every entity is rebuilt from its connector on the next start.
    name: '034-context-store-compact-values',
    async up(db: Kysely<object>): Promise<void> {
      await db.schema.dropTable('cs_values').execute();
      await createValuesTableV2(db);
      await rebuildEveryEntity(db);
    },
  },
  {
    // Changed records, written in the same transaction as the change (see outbox.ts): a change committed
    // just before a crash is indexed after the restart instead of staying stale.
    name: '035-context-store-outbox',
    async up(db: Kysely<object>): Promise<void> {
      await db.schema
        .createTable('cs_outbox')
        .addColumn('seq', 'integer', (c) => c.primaryKey().autoIncrement())
        .addColumn('connector_id', 'text', (c) => c.notNull().references('connectors.id').onDelete('cascade'))
        .addColumn('entity', 'text', (c) => c.notNull())
        .addColumn('record_id', 'text', (c) => c.notNull())
        .execute();
    },
  },
  {
    // The trigram index of `like` (sqlite-like.ts), filled from the value table of every built entity.
    name: '036-context-store-like-index',
    async up(db: Kysely<object>): Promise<void> {
      await createLikeTableV1(db);
      const cs = db.withTables<ContextStoreTables>();
      const states = await cs.selectFrom('cs_state').select(['connector_id', 'entity', 'fields']).execute();
      for (const s of states) {
        const fields = textFields(JSON.parse(s.fields) as FieldCatalog);
        for (const [pos, field] of fields.entries()) {
          if (pos >= LIKE_FIELDS_PER_DOC_V2) break;
          const scope = fieldToken(s.connector_id, s.entity, field);
          await sql`INSERT INTO cs_like (rowid, scope, body)
            SELECT d.rowid * ${sql.lit(LIKE_FIELDS_PER_DOC_V2)} + ${pos}, ${scope}, v.text
            FROM cs_values v JOIN cs_docs d ON d.connector_id = v.connector_id AND d.entity = v.entity AND d.id = v.id
            WHERE v.connector_id = ${s.connector_id} AND v.entity = ${s.entity} AND v.field = ${field} AND v.kind <> 2 AND v.text <> ''`.execute(
            db,
          );
        }
      }
    },
  },
  {
    // Value rows keyed by integers (sqlite-values.ts). Indexes are derived data: every entity is rebuilt from
    // its connector on the next start, as in 034.
    name: '037-context-store-integer-value-keys',
    async up(db: Kysely<object>): Promise<void> {
      await db.schema.dropTable('cs_values').execute();
      await createValuesTable(db);
      // Emptied first: deleting the documents then finds no trigram rows to remove one by one.
      await sql`DELETE FROM cs_like`.execute(db);
      await rebuildEveryEntity(db);
    },
  },
  {
    // The trigram index without its scope column, contents or positions (sqlite-like.ts), refilled from the
    // value table: the rowid already says which document and field a row is of.
    name: '038-context-store-contentless-like-index',
    async up(db: Kysely<object>): Promise<void> {
      await sql`DROP TRIGGER cs_like_delete`.execute(db);
      await db.schema.dropTable('cs_like').execute();
      await createLikeTableV2(db);
      const cs = db.withTables<ContextStoreTables>();
      const states = await cs.selectFrom('cs_state').select(['connector_id', 'entity', 'fields']).execute();
      for (const s of states) {
        const fields = textFields(JSON.parse(s.fields) as FieldCatalog).slice(0, LIKE_FIELDS_PER_DOC_V2);
        for (const [pos, field] of fields.entries()) {
          await sql`INSERT INTO cs_like (rowid, body)
            SELECT v.doc * ${sql.lit(LIKE_FIELDS_PER_DOC_V2)} + ${pos}, v.text
            FROM cs_fields f JOIN cs_values v ON v.fid = f.fid
            WHERE f.connector_id = ${s.connector_id} AND f.entity = ${s.entity} AND f.field = ${field} AND v.kind <> 2 AND v.text <> ''`.execute(
            db,
          );
        }
      }
    },
  },
  {
    // One trigram row per document instead of one per field (sqlite-like.ts), refilled from the value table.
    name: '039-context-store-like-row-per-document',
    async up(db: Kysely<object>): Promise<void> {
      await sql`DROP TRIGGER cs_like_delete`.execute(db);
      await db.schema.dropTable('cs_like').execute();
      await createLikeTable(db);
      const cs = db.withTables<ContextStoreTables>();
      const states = await cs.selectFrom('cs_state').select(['connector_id', 'entity', 'fields']).execute();
      for (const s of states) {
        const fields = textFields(JSON.parse(s.fields) as FieldCatalog);
        if (fields.length === 0) continue;
        await sql`INSERT INTO cs_like (rowid, body)
          SELECT v.doc, group_concat(v.text, ${LIKE_SEPARATOR})
          FROM cs_fields f JOIN cs_values v ON v.fid = f.fid
          WHERE f.connector_id = ${s.connector_id} AND f.entity = ${s.entity} AND f.field IN (${sql.join(fields)})
            AND v.kind <> 2 AND v.text <> ''
          GROUP BY v.doc`.execute(db);
      }
    },
  },
];
