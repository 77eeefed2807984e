import type { Kysely } from 'kysely';
import { ServiceError } from '../../core/errors.js';
import type { ActionContext, ActionResult } from '../../core/connector-type.js';
import { contentTypeFor, decodeContent, encodeText, sha256Hex, TEXT_CONTENT_TYPE } from './content.js';
import { requireFolder } from './folders.js';
import { pageMetadata, readPage, rejectCursor } from './paging.js';
import { filesDb, parseId, type FilesDb, type FileRow } from './tables.js';
import type { CoreTables } from '../../core/tables.js';

/** The file metadata record answered by list, get and create (the bytes come from download). */
export interface FileRecord {
  id: string;
  folderId: string;
  name: string;
  contentType: string;
  size: number;
  sha256: string;
  createdAt: string;
  updatedAt: string;
}

type FileMeta = Omit<FileRow, 'content'>;
const metaColumns = [
  'id',
  'connector_id',
  'folder_id',
  'name',
  'content_type',
  'size',
  'sha256',
  'created_at',
  'updated_at',
] as const;

function toRecord(row: FileMeta): FileRecord {
  return {
    id: String(row.id),
    folderId: String(row.folder_id),
    name: row.name,
    contentType: row.content_type,
    size: row.size,
    sha256: row.sha256,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

function db(ctx: ActionContext): FilesDb {
  return filesDb(ctx.store.db);
}

function notFound(idParam: unknown): ServiceError {
  return new ServiceError('H404', { message: `file ${String(idParam)} not found` }, { field: 'params.fileId' });
}

/** files.list: one offset page of file metadata in id order, optionally of one folder. */
export async function listFiles(ctx: ActionContext, params: Record<string, unknown>): Promise<ActionResult> {
  rejectCursor(params);
  const { offset, limit } = readPage(params);
  let query = db(ctx).selectFrom('files_files').where('connector_id', '=', ctx.connector.id);
  if (params.folderId !== undefined) query = query.where('folder_id', '=', parseId(params.folderId) ?? -1);
  const total = Number((await query.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
  const rows = await query.select(metaColumns).orderBy('id').limit(limit).offset(offset).execute();
  return { kind: 'json', result: rows.map(toRecord), connectorMetadata: pageMetadata(offset, rows.length, total) };
}

/** files.get: the metadata of one file. */
export async function getFile(ctx: ActionContext, params: Record<string, unknown>): Promise<ActionResult> {
  const id = parseId(params.fileId);
  const row =
    id === null
      ? undefined
      : await db(ctx)
          .selectFrom('files_files')
          .select(metaColumns)
          .where('connector_id', '=', ctx.connector.id)
          .where('id', '=', id)
          .executeTakeFirst();
  if (!row) throw notFound(params.fileId);
  return { kind: 'json', result: toRecord(row), connectorMetadata: {} };
}

/** Inserts one file into an existing folder of the connector (inside the caller's transaction). */
export async function insertFile(
  trx: Kysely<CoreTables>,
  connectorId: string,
  file: { folderId: unknown; name: string; content: Buffer; contentType?: string | undefined },
  now: string,
): Promise<FileMeta> {
  const folder = await requireFolder(trx, connectorId, file.folderId, 'params.folderId');
  return filesDb(trx)
    .insertInto('files_files')
    .values({
      connector_id: connectorId,
      folder_id: folder.id,
      name: file.name,
      content_type: file.contentType ?? contentTypeFor(file.name),
      size: file.content.length,
      sha256: sha256Hex(file.content),
      content: file.content,
      created_at: now,
      updated_at: now,
    } as FileRow)
    .returning(metaColumns)
    .executeTakeFirstOrThrow();
}

/**
 * files.create: stores content (base64 by default, or UTF-8 text with encoding utf-8; never empty) in a
 * folder and answers the new file's metadata.
 */
export async function createFile(ctx: ActionContext, params: Record<string, unknown>): Promise<ActionResult> {
  const text = params.encoding === 'utf-8';
  const content = text
    ? encodeText(String(params.content), 'params.content')
    : decodeContent(String(params.content), 'params.content');
  const name = String(params.name);
  const contentType =
    typeof params.content_type === 'string'
      ? params.content_type
      : contentTypeFor(name, text ? TEXT_CONTENT_TYPE : undefined);
  const now = ctx.now().toISOString();
  const row = await ctx.store.transaction((trx) =>
    insertFile(trx, ctx.connector.id, { folderId: params.folderId, name, content, contentType }, now),
  );
  return { kind: 'json', result: toRecord(row), connectorMetadata: {} };
}

/** files.download: the raw bytes with their content type and name; an unknown id is a 404, never an empty 200. */
export async function downloadFile(ctx: ActionContext, params: Record<string, unknown>): Promise<ActionResult> {
  const id = parseId(params.fileId);
  const row =
    id === null
      ? undefined
      : await db(ctx)
          .selectFrom('files_files')
          .select(['name', 'content_type', 'content'])
          .where('connector_id', '=', ctx.connector.id)
          .where('id', '=', id)
          .executeTakeFirst();
  if (!row) throw notFound(params.fileId);
  const body = Buffer.from(row.content);
  // Creation refuses empty content, so this guards only against a damaged database.
  if (body.length === 0) {
    throw new ServiceError(
      'H409',
      { message: `file ${String(params.fileId)} has no content to download` },
      { field: 'params.fileId' },
    );
  }
  // Create refuses a type a header cannot carry; a row stored before that rule downloads as plain bytes, not a 500.
  const contentType = /^[\t\x20-\x7e]+$/.test(row.content_type) ? row.content_type : 'application/octet-stream';
  return { kind: 'bytes', body, contentType, filename: row.name };
}
