import type { Kysely } from 'kysely';
import type { Migration } from '../../core/store.js';

/** Tables of the Files connector: folders and files with their content, per connector (deleted with it). */
export const filesMigrations: readonly Migration[] = [
  {
    name: '020-files-tables',
    async up(db: Kysely<object>): Promise<void> {
      await db.schema
        .createTable('files_folders')
        .ifNotExists()
        .addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement())
        .addColumn('connector_id', 'text', (c) => c.notNull().references('connectors.id').onDelete('cascade'))
        .addColumn('parent_id', 'integer', (c) => c.references('files_folders.id').onDelete('cascade'))
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('files_folders_connector')
        .ifNotExists()
        .on('files_folders')
        .columns(['connector_id', 'id'])
        .execute();
      await db.schema
        .createTable('files_files')
        .ifNotExists()
        .addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement())
        .addColumn('connector_id', 'text', (c) => c.notNull().references('connectors.id').onDelete('cascade'))
        .addColumn('folder_id', 'integer', (c) => c.notNull().references('files_folders.id').onDelete('cascade'))
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('content_type', 'text', (c) => c.notNull())
        .addColumn('size', 'integer', (c) => c.notNull())
        .addColumn('sha256', 'text', (c) => c.notNull())
        .addColumn('content', 'blob', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('files_files_connector')
        .ifNotExists()
        .on('files_files')
        .columns(['connector_id', 'id'])
        .execute();
      await db.schema
        .createIndex('files_files_folder')
        .ifNotExists()
        .on('files_files')
        .columns(['connector_id', 'folder_id', 'id'])
        .execute();
    },
  },
];
