import type { Kysely } from 'kysely';
import type { CoreTables } from '../../core/tables.js';

/** Rows of the Files connector's tables (see migrations.ts). */
export interface FolderRow {
  id: number;
  connector_id: string;
  parent_id: number | null;
  name: string;
  created_at: string;
  updated_at: string;
}

export interface FileRow {
  id: number;
  connector_id: string;
  folder_id: number;
  name: string;
  content_type: string;
  size: number;
  sha256: string;
  content: Buffer;
  created_at: string;
  updated_at: string;
}

/** The Files connector's own tables (created by migrations.ts). */
export type FilesTables = {
  files_folders: FolderRow;
  files_files: FileRow;
};

/** A store handle (or transaction) that knows the Files tables besides the core ones. */
export type FilesDb = Kysely<CoreTables & FilesTables>;

/** Widens a store handle (or transaction) to the Files tables. */
export function filesDb(db: Kysely<CoreTables>): FilesDb {
  return db.withTables<FilesTables>();
}

/** Parses an id param; non-numeric ids cannot exist, so they are simply "not found" (null). */
export function parseId(value: unknown): number | null {
  if (typeof value !== 'string' || !/^[1-9][0-9]{0,15}$/.test(value)) return null;
  const n = Number(value);
  return Number.isSafeInteger(n) ? n : null;
}
