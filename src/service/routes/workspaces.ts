import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { ServiceError } from '../core/errors.js';
import type { CursorSeal } from '../core/cursor-seal.js';
import {
  countWorkspaces,
  findWorkspaceById,
  listWorkspaces,
  softDeleteWorkspace,
  toWorkspaceItem,
  updateWorkspace,
  type WorkspaceCursor,
} from '../store/workspaces.js';

const DEFAULT_LIMIT = 20;
const MAX_LIMIT = 100;

interface ListQuery {
  limit?: string;
  cursor?: string;
  name_contains?: string;
  status?: 'active' | 'inactive';
}

const listQuery = {
  type: 'object',
  properties: {
    limit: { type: 'string', pattern: '^[0-9]{1,6}$' },
    cursor: { type: 'string', maxLength: 500 },
    name_contains: { type: 'string', maxLength: 200 },
    status: { type: 'string', enum: ['active', 'inactive'] },
  },
  additionalProperties: false,
} as const;

const updateBody = {
  type: 'object',
  properties: {
    // null, like an omitted field, keeps the name or status (the published contract allows it).
    name: { type: ['string', 'null'], minLength: 1, maxLength: 200 },
    status: { type: ['string', 'null'], enum: ['active', 'inactive', null] },
    cache_enabled: { type: ['boolean', 'null'] },
  },
  additionalProperties: false,
} as const;

/** The opaque cursor: the last item's sort key, sealed (a cursor the service did not issue opens to nothing). */
function encodeCursor(cursors: CursorSeal, c: WorkspaceCursor): string {
  return cursors.seal(JSON.stringify([c.created_at, c.id]));
}

function decodeCursor(cursors: CursorSeal, s: string): WorkspaceCursor {
  try {
    const v: unknown = JSON.parse(cursors.open(s) ?? 'null');
    if (Array.isArray(v) && v.length === 2 && typeof v[0] === 'string' && typeof v[1] === 'string')
      return { created_at: v[0], id: v[1] };
  } catch {
    // fall through to the error below
  }
  throw new ServiceError(
    'H400_INVALID_CURSOR',
    { message: 'cursor is not one this service issued; use the "next" URL of the previous page' },
    { field: 'query.cursor' },
  );
}

function parseLimit(raw: string | undefined): number {
  if (raw === undefined) return DEFAULT_LIMIT;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1 || n > MAX_LIMIT)
    throw new ServiceError(
      'H400_INVALID_LIMIT',
      { message: `limit must be between 1 and ${MAX_LIMIT}` },
      { field: 'query.limit', details: { min: 1, max: MAX_LIMIT } },
    );
  return n;
}

/** The full URL of the next page: same filters and limit, the new cursor. */
function nextUrl(request: FastifyRequest, q: ListQuery, limit: number, cursor: string): string {
  const params = new URLSearchParams();
  params.set('limit', String(limit));
  if (q.name_contains !== undefined) params.set('name_contains', q.name_contains);
  if (q.status !== undefined) params.set('status', q.status);
  params.set('cursor', cursor);
  return `${request.protocol}://${request.host}/api/v1/workspaces?${params.toString()}`;
}

/** List (paged), get, update and soft-delete workspaces of the token's organization. */
export const workspaceRoutes: FastifyPluginAsync = async (app) => {
  const db = () => app.service.store.db;
  const notFound = (id: string) =>
    new ServiceError('H404', { message: `workspace ${id} not found` }, { field: 'path.id' });

  app.get<{ Querystring: ListQuery }>('/workspaces', { schema: { querystring: listQuery } }, async (request) => {
    const q = request.query;
    const limit = parseLimit(q.limit);
    const after = q.cursor !== undefined ? decodeCursor(app.service.cursors, q.cursor) : null;
    const { rows, more } = await listWorkspaces(db(), request.organizationId, {
      limit,
      after,
      ...(q.name_contains !== undefined && { nameContains: q.name_contains }),
      ...(q.status !== undefined && { status: q.status }),
    });
    const last = rows[rows.length - 1];
    return {
      data: rows.map(toWorkspaceItem),
      next: more && last ? nextUrl(request, q, limit, encodeCursor(app.service.cursors, last)) : null,
    };
  });

  // Static path: Fastify matches it before /workspaces/:id.
  app.get('/workspaces/stats', async (request) => countWorkspaces(db(), request.organizationId));

  app.get<{ Params: { id: string } }>('/workspaces/:id', async (request) => {
    const row = await findWorkspaceById(db(), request.organizationId, request.params.id);
    if (!row) throw notFound(request.params.id);
    return toWorkspaceItem(row);
  });

  app.put<{
    Params: { id: string };
    Body: { name?: string | null; status?: 'active' | 'inactive' | null; cache_enabled?: boolean | null };
  }>('/workspaces/:id', { schema: { body: updateBody } }, async (request) => {
    const org = request.organizationId;
    const id = request.params.id;
    const row = await app.service.store.transaction(async (trx) => {
      const current = await findWorkspaceById(trx, org, id);
      if (!current) throw notFound(id);
      const name = request.body.name ?? undefined;
      if (name !== undefined && name !== current.name) {
        const clash = await trx
          .selectFrom('workspaces')
          .select('id')
          .where('organization_id', '=', org)
          .where('name', '=', name)
          .where('deleted_at', 'is', null)
          .executeTakeFirst();
        if (clash)
          throw new ServiceError('H409', { message: `a workspace named "${name}" already exists` }, { field: 'name' });
      }
      const { cache_enabled } = request.body;
      const status = request.body.status ?? undefined;
      const change = {
        ...(name !== undefined && { name }),
        ...(status !== undefined && { status }),
        ...(cache_enabled !== undefined && { cache_enabled }),
      };
      return updateWorkspace(trx, org, id, change, app.service.now());
    });
    if (!row) throw notFound(id);
    return toWorkspaceItem(row);
  });

  app.delete<{ Params: { id: string } }>('/workspaces/:id', async (request) => {
    const deletedAt = await softDeleteWorkspace(db(), request.organizationId, request.params.id, app.service.now());
    if (!deletedAt) throw notFound(request.params.id);
    return { id: request.params.id, deleted_at: deletedAt };
  });
};
