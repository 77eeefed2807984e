import { SqliteAdapter, sql, type ColumnDefinitionBuilder, type Generated, type Kysely } from 'kysely';
import type { Migration } from '../../core/store.js';
import type { CoreTables } from '../../core/tables.js';

/** One CRM record of any object type (standard or custom). `properties` is JSON text of string values. */
export interface CrmRecordRow {
  connector_id: string;
  /** Per-connector id shared by all object types (one monotonic sequence), so an id names one record. */
  id: number;
  /** Standard entity name ("contacts") or custom object type id ("2-1"). */
  object_type: string;
  properties: string;
  created_at: string;
  updated_at: string;
  archived: number;
  archived_at: string | null;
  /** Lower-cased contact email: the unique key behind the 409 on duplicates. Null for other types. */
  email_key: string | null;
}

/** One past value of a property (written on every API write; seeded values have none and are synthesised). */
export interface CrmPropertyHistoryRow {
  connector_id: string;
  record_id: number;
  property: string;
  value: string;
  timestamp: string;
  source_type: string;
  source_id: string | null;
  seq: Generated<number>;
}

/** One direction of an association; every association is stored in both directions. */
export interface CrmAssociationRow {
  connector_id: string;
  from_id: number;
  from_type: string;
  to_id: number;
  to_type: string;
  category: string;
  type_id: number;
}

/** A custom object schema; `definition` is JSON of the fields not kept in columns. */
export interface CrmSchemaRow {
  connector_id: string;
  id: number;
  name: string;
  fully_qualified_name: string;
  definition: string;
  archived: number;
  created_at: string;
  updated_at: string;
}

/** The next free record id of a connector (ids are reserved here, so a long seed can share the sequence). */
export interface CrmIdSequenceRow {
  connector_id: string;
  next_id: number;
}

/** The CRM's own tables (created by crmMigrations below). */
export type CrmTables = {
  crm_id_sequence: CrmIdSequenceRow;
  crm_records: CrmRecordRow;
  crm_property_history: CrmPropertyHistoryRow;
  crm_associations: CrmAssociationRow;
  crm_schemas: CrmSchemaRow;
};

/** A store handle (or transaction) that knows the CRM's tables besides the core ones. */
export type CrmDb = Kysely<CoreTables & CrmTables>;

/** Widens a store handle (or transaction) to the CRM tables. */
export function crmDb(db: Kysely<CoreTables>): CrmDb {
  return db.withTables<CrmTables>();
}

const cascade = (c: ColumnDefinitionBuilder) => c.notNull().references('connectors.id').onDelete('cascade');

/** The CRM tables; they sort after "000-core" (connectors) and cascade with the connector. */
export const crmMigrations: readonly Migration[] = [
  {
    name: '010-crm-records',
    async up(db) {
      await db.schema
        .createTable('crm_records')
        .addColumn('connector_id', 'text', cascade)
        .addColumn('id', 'integer', (c) => c.notNull())
        .addColumn('object_type', 'text', (c) => c.notNull())
        .addColumn('properties', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .addColumn('archived', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('archived_at', 'text')
        .addColumn('email_key', 'text')
        .addPrimaryKeyConstraint('crm_records_pk', ['connector_id', 'id'])
        .execute();
      await db.schema
        .createIndex('crm_records_type')
        .on('crm_records')
        .columns(['connector_id', 'object_type', 'archived', 'id'])
        .execute();
      await db.schema
        .createIndex('crm_records_email')
        .on('crm_records')
        .columns(['connector_id', 'email_key'])
        .unique()
        .where(sql.ref('email_key'), 'is not', null)
        .execute();
    },
  },
  {
    name: '011-crm-property-history',
    async up(db) {
      await db.schema
        .createTable('crm_property_history')
        .addColumn('seq', 'integer', (c) => c.primaryKey().autoIncrement())
        .addColumn('connector_id', 'text', cascade)
        .addColumn('record_id', 'integer', (c) => c.notNull())
        .addColumn('property', 'text', (c) => c.notNull())
        .addColumn('value', 'text', (c) => c.notNull())
        .addColumn('timestamp', 'text', (c) => c.notNull())
        .addColumn('source_type', 'text', (c) => c.notNull())
        .addColumn('source_id', 'text')
        .execute();
      await db.schema
        .createIndex('crm_property_history_record')
        .on('crm_property_history')
        .columns(['connector_id', 'record_id', 'property'])
        .execute();
    },
  },
  {
    name: '012-crm-associations',
    async up(db) {
      await db.schema
        .createTable('crm_associations')
        .addColumn('connector_id', 'text', cascade)
        .addColumn('from_id', 'integer', (c) => c.notNull())
        .addColumn('from_type', 'text', (c) => c.notNull())
        .addColumn('to_id', 'integer', (c) => c.notNull())
        .addColumn('to_type', 'text', (c) => c.notNull())
        .addColumn('category', 'text', (c) => c.notNull())
        .addColumn('type_id', 'integer', (c) => c.notNull())
        .addPrimaryKeyConstraint('crm_associations_pk', [
          'connector_id',
          'from_id',
          'to_type',
          'to_id',
          'category',
          'type_id',
        ])
        // SQLite-only clause (PostgreSQL has no rowid): the key is the whole row, so the table is its own index.
        .$call((b) => (db.getExecutor().adapter instanceof SqliteAdapter ? b.modifyEnd(sql`without rowid`) : b))
        .execute();
    },
  },
  {
    name: '013-crm-schemas',
    async up(db) {
      await db.schema
        .createTable('crm_schemas')
        .addColumn('connector_id', 'text', cascade)
        .addColumn('id', 'integer', (c) => c.notNull())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('fully_qualified_name', 'text', (c) => c.notNull())
        .addColumn('definition', 'text', (c) => c.notNull())
        .addColumn('archived', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('crm_schemas_pk', ['connector_id', 'id'])
        .execute();
      await db.schema
        .createIndex('crm_schemas_name')
        .on('crm_schemas')
        .columns(['connector_id', 'name'])
        .unique()
        .execute();
    },
  },
  {
    name: '014-crm-id-sequence',
    async up(db) {
      await db.schema
        .createTable('crm_id_sequence')
        .addColumn('connector_id', 'text', (c) => c.primaryKey().references('connectors.id').onDelete('cascade'))
        .addColumn('next_id', 'integer', (c) => c.notNull())
        .execute();
    },
  },
];
