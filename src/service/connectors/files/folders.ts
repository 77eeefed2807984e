import type { Kysely } from 'kysely';
import { ServiceError } from '../../core/errors.js';
import type { ActionContext, ActionResult } from '../../core/connector-type.js';
import { pageMetadata, readPage, rejectCursor } from './paging.js';
import { filesDb, parseId, type FilesDb, type FolderRow } from './tables.js';
import type { CoreTables } from '../../core/tables.js';

/** The folder record answered by list, get and create. */
export interface FolderRecord {
  id: string;
  name: string;
  parentId: string | null;
  fileCount: number;
  createdAt: string;
  updatedAt: string;
}

function toRecord(row: FolderRow, fileCount: number): FolderRecord {
  return {
    id: String(row.id),
    name: row.name,
    parentId: row.parent_id === null ? null : String(row.parent_id),
    fileCount,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

function db(ctx: ActionContext): FilesDb {
  return filesDb(ctx.store.db);
}

async function fileCounts(ctx: ActionContext, folderIds: number[]): Promise<Map<number, number>> {
  if (folderIds.length === 0) return new Map();
  const rows = await db(ctx)
    .selectFrom('files_files')
    .select(['folder_id', (eb) => eb.fn.countAll<number>().as('n')])
    .where('connector_id', '=', ctx.connector.id)
    .where('folder_id', 'in', folderIds)
    .groupBy('folder_id')
    .execute();
  return new Map(rows.map((r) => [r.folder_id, Number(r.n)]));
}

/** Finds one folder of this connector, or throws 404 naming the param. */
export async function requireFolder(
  trx: Kysely<CoreTables>,
  connectorId: string,
  idParam: unknown,
  field: string,
): Promise<FolderRow> {
  const id = parseId(idParam);
  const row =
    id === null
      ? undefined
      : await filesDb(trx)
          .selectFrom('files_folders')
          .selectAll()
          .where('connector_id', '=', connectorId)
          .where('id', '=', id)
          .executeTakeFirst();
  if (!row) throw new ServiceError('H404', { message: `folder ${String(idParam)} not found` }, { field });
  return row;
}

/** folders.list: one offset page of folders in id order. */
export async function listFolders(ctx: ActionContext, params: Record<string, unknown>): Promise<ActionResult> {
  rejectCursor(params);
  const { offset, limit } = readPage(params);
  let query = db(ctx).selectFrom('files_folders').where('connector_id', '=', ctx.connector.id);
  if (params.parentId !== undefined) {
    const parent = parseId(params.parentId);
    query = query.where('parent_id', '=', parent ?? -1);
  }
  const total = Number((await query.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
  const rows = await query.selectAll().orderBy('id').limit(limit).offset(offset).execute();
  const counts = await fileCounts(
    ctx,
    rows.map((r) => r.id),
  );
  return {
    kind: 'json',
    result: rows.map((r) => toRecord(r, counts.get(r.id) ?? 0)),
    connectorMetadata: pageMetadata(offset, rows.length, total),
  };
}

/** folders.get: one folder by folderId. */
export async function getFolder(ctx: ActionContext, params: Record<string, unknown>): Promise<ActionResult> {
  const row = await requireFolder(ctx.store.db, ctx.connector.id, params.folderId, 'params.folderId');
  const counts = await fileCounts(ctx, [row.id]);
  return { kind: 'json', result: toRecord(row, counts.get(row.id) ?? 0), connectorMetadata: {} };
}

/** folders.create: a new folder, optionally inside parentId (which must exist). */
export async function createFolder(ctx: ActionContext, params: Record<string, unknown>): Promise<ActionResult> {
  const now = ctx.now().toISOString();
  const row = await ctx.store.transaction(async (trx) => {
    const parent =
      params.parentId === undefined
        ? null
        : await requireFolder(trx, ctx.connector.id, params.parentId, 'params.parentId');
    return filesDb(trx)
      .insertInto('files_folders')
      .values({
        connector_id: ctx.connector.id,
        parent_id: parent?.id ?? null,
        name: String(params.name),
        created_at: now,
        updated_at: now,
      } as FolderRow)
      .returningAll()
      .executeTakeFirstOrThrow();
  });
  return { kind: 'json', result: toRecord(row, 0), connectorMetadata: {} };
}
