import { sql, type Kysely } from 'kysely';
import type { Migration } from '../core/store.js';

/**
 * The service's own tables. Named "000-…" so they sort before every connector type's and the context
 * store's migrations, which reference connectors(id).
 */
export const coreMigrations: readonly Migration[] = [
  {
    name: '000-core',
    async up(db: Kysely<object>) {
      await db.schema
        .createTable('organizations')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createTable('applications')
        .addColumn('client_id', 'text', (c) => c.primaryKey())
        .addColumn('organization_id', 'text', (c) => c.notNull().references('organizations.id').onDelete('cascade'))
        // scrypt hash and its salt; the plain secret is never stored.
        .addColumn('secret_hash', 'text', (c) => c.notNull())
        .addColumn('secret_salt', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createTable('signing_keys')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('algorithm', 'text', (c) => c.notNull())
        .addColumn('secret', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createTable('workspaces')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('organization_id', 'text', (c) => c.notNull().references('organizations.id').onDelete('cascade'))
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull().check(sql`status in ('active', 'inactive')`))
        // 1, 0, or NULL (inherit from the organization).
        .addColumn('cache_enabled', 'integer')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .addColumn('deleted_at', 'text')
        .execute();
      // A name is unique among an organization's live workspaces; deleted ones free their name.
      await db.schema
        .createIndex('workspaces_org_name_live')
        .on('workspaces')
        .columns(['organization_id', 'name'])
        .unique()
        .where(sql.ref('deleted_at'), 'is', null)
        .execute();
      await db.schema
        .createTable('connectors')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('organization_id', 'text', (c) => c.notNull().references('organizations.id').onDelete('cascade'))
        .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
        .addColumn('definition_id', 'text', (c) => c.notNull())
        .addColumn('name', 'text', (c) => c.notNull())
        // JSON text; never returned by any route nor logged.
        .addColumn('credentials', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('connectors_workspace')
        .on('connectors')
        .columns(['workspace_id', 'definition_id'])
        .execute();
      await db.schema.createIndex('connectors_org').on('connectors').column('organization_id').execute();
    },
  },
  {
    // The published contract's connector fields: replication_config and entities are answered back;
    // environment (user configuration merged with the credentials by the hosted service) is stored like them.
    name: '001-core-connector-config',
    async up(db: Kysely<object>) {
      await db.schema
        .alterTable('connectors')
        .addColumn('replication_config', 'text', (c) => c.notNull().defaultTo('{}'))
        .execute();
      await db.schema
        .alterTable('connectors')
        .addColumn('environment', 'text', (c) => c.notNull().defaultTo('{}'))
        .execute();
      // JSON array of {entity, modes}, or NULL when none was given.
      await db.schema.alterTable('connectors').addColumn('entities', 'text').execute();
    },
  },
];
