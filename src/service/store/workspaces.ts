import { randomUUID } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import type { CoreTables, WorkspaceRow } from '../core/tables.js';

/** A workspace as the API shows it. */
export interface WorkspaceItem {
  id: string;
  name: string;
  organization_id: string;
  status: 'active' | 'inactive';
  cache_enabled: boolean | null;
  tombstone: boolean;
  /** Every workspace is shared by the organization here (the published contract also knows private). */
  visibility: 'shared';
  /** No display colors are kept here. */
  color: null;
  created_at: string;
  updated_at: string;
}

/** Maps a stored row to the API's item shape. */
export function toWorkspaceItem(row: WorkspaceRow): WorkspaceItem {
  return {
    id: row.id,
    name: row.name,
    organization_id: row.organization_id,
    status: row.status,
    cache_enabled: row.cache_enabled === null ? null : row.cache_enabled === 1,
    tombstone: row.deleted_at !== null,
    visibility: 'shared',
    color: null,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

/** A live (not deleted) workspace of the organization, by id. */
export async function findWorkspaceById(
  db: Kysely<CoreTables>,
  orgId: string,
  id: string,
): Promise<WorkspaceRow | undefined> {
  return db
    .selectFrom('workspaces')
    .selectAll()
    .where('organization_id', '=', orgId)
    .where('id', '=', id)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
}

/** A live workspace of the organization, by exact name. */
export async function findWorkspaceByName(
  db: Kysely<CoreTables>,
  orgId: string,
  name: string,
): Promise<WorkspaceRow | undefined> {
  return db
    .selectFrom('workspaces')
    .selectAll()
    .where('organization_id', '=', orgId)
    .where('name', '=', name)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
}

/** Position after which a page starts: the (created_at, id) of the last item of the previous page. */
export interface WorkspaceCursor {
  created_at: string;
  id: string;
}

/** One page of live workspaces in (created_at, id) order, with one extra row fetched to tell if more exist. */
export async function listWorkspaces(
  db: Kysely<CoreTables>,
  orgId: string,
  q: { limit: number; after: WorkspaceCursor | null; nameContains?: string; status?: 'active' | 'inactive' },
): Promise<{ rows: WorkspaceRow[]; more: boolean }> {
  let query = db
    .selectFrom('workspaces')
    .selectAll()
    .where('organization_id', '=', orgId)
    .where('deleted_at', 'is', null);
  if (q.nameContains !== undefined) {
    // Case-insensitive substring; LIKE wildcards in the user's text are escaped.
    const escaped = q.nameContains.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`);
    query = query.where(sql<boolean>`lower(name) like ${`%${escaped}%`} escape '\\'`);
  }
  if (q.status !== undefined) query = query.where('status', '=', q.status);
  if (q.after) {
    const after = q.after;
    query = query.where((eb) =>
      eb.or([
        eb('created_at', '>', after.created_at),
        eb.and([eb('created_at', '=', after.created_at), eb('id', '>', after.id)]),
      ]),
    );
  }
  const rows = await query
    .orderBy('created_at')
    .orderBy('id')
    .limit(q.limit + 1)
    .execute();
  const more = rows.length > q.limit;
  return { rows: more ? rows.slice(0, q.limit) : rows, more };
}

/** Changes name, status and/or cache_enabled of a live workspace; returns the updated row or undefined. */
export async function updateWorkspace(
  db: Kysely<CoreTables>,
  orgId: string,
  id: string,
  patch: { name?: string; status?: 'active' | 'inactive'; cache_enabled?: boolean | null },
  now: Date,
): Promise<WorkspaceRow | undefined> {
  const values: Partial<WorkspaceRow> = { updated_at: now.toISOString() };
  if (patch.name !== undefined) values.name = patch.name;
  if (patch.status !== undefined) values.status = patch.status;
  if (patch.cache_enabled !== undefined)
    values.cache_enabled = patch.cache_enabled === null ? null : patch.cache_enabled ? 1 : 0;
  const res = await db
    .updateTable('workspaces')
    .set(values)
    .where('organization_id', '=', orgId)
    .where('id', '=', id)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  if (Number(res.numUpdatedRows) === 0) return undefined;
  return findWorkspaceById(db, orgId, id);
}

/** Soft-deletes a live workspace (it disappears from lists and lookups); returns deleted_at or undefined. */
export async function softDeleteWorkspace(
  db: Kysely<CoreTables>,
  orgId: string,
  id: string,
  now: Date,
): Promise<string | undefined> {
  const ts = now.toISOString();
  const res = await db
    .updateTable('workspaces')
    .set({ deleted_at: ts, updated_at: ts })
    .where('organization_id', '=', orgId)
    .where('id', '=', id)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  return Number(res.numUpdatedRows) === 0 ? undefined : ts;
}

/** Creates an active workspace (fixtures, tests); the name must be free among live workspaces. */
export async function createWorkspace(
  db: Kysely<CoreTables>,
  orgId: string,
  name: string,
  now: Date,
): Promise<WorkspaceRow> {
  const ts = now.toISOString();
  const row: WorkspaceRow = {
    id: randomUUID(),
    organization_id: orgId,
    name,
    status: 'active',
    cache_enabled: null,
    created_at: ts,
    updated_at: ts,
    deleted_at: null,
  };
  await db.insertInto('workspaces').values(row).execute();
  return row;
}

/** Live workspaces of an organization by status. */
export async function countWorkspaces(
  db: Kysely<CoreTables>,
  orgId: string,
): Promise<{ active_count: number; inactive_count: number; total_count: number }> {
  const rows = await db
    .selectFrom('workspaces')
    .select(['status', (eb) => eb.fn.countAll<number>().as('n')])
    .where('organization_id', '=', orgId)
    .where('deleted_at', 'is', null)
    .groupBy('status')
    .execute();
  const of = (s: string) => Number(rows.find((r) => r.status === s)?.n ?? 0);
  return { active_count: of('active'), inactive_count: of('inactive'), total_count: of('active') + of('inactive') };
}
