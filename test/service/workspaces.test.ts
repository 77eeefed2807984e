import type { Kysely } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { CoreTables } from '../../src/service/core/tables.js';
import { createWorkspace } from '../../src/service/store/workspaces.js';
import { createTestService, type TestService } from './helpers.js';
import { echoConnector, echoMigrations } from './support/echo-connector.js';

let svc: TestService;
let headers: Record<string, string>;
beforeEach(async () => {
  svc = await createTestService({ connectorTypes: [echoConnector], migrations: echoMigrations });
  headers = await svc.auth();
});
afterEach(async () => {
  await svc.close();
});

const get = (url: string, h = headers) => svc.app.inject({ method: 'GET', url, headers: h });

async function addWorkspaces(n: number, prefix = 'ws'): Promise<void> {
  const db = svc.store.db as Kysely<CoreTables>;
  for (let i = 0; i < n; i++) {
    svc.clock.set(new Date(Date.UTC(2030, 0, 1, 0, 0, i)));
    await createWorkspace(
      db,
      svc.org.organizationId,
      `${prefix}-${String(i).padStart(3, '0')}`,
      new Date(Date.UTC(2030, 0, 1, 0, 0, i)),
    );
  }
  svc.clock.set(null);
}

describe('workspaces', () => {
  it('every organization has a default workspace with the spec fields', async () => {
    const res = await get('/api/v1/workspaces');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      data: [
        {
          id: svc.org.defaultWorkspaceId,
          name: 'default',
          organization_id: svc.org.organizationId,
          status: 'active',
          cache_enabled: null,
          tombstone: false,
          visibility: 'shared',
          color: null,
          created_at: expect.any(String),
          updated_at: expect.any(String),
        },
      ],
      next: null,
    });
  });

  it('pages with limit (default 20) and a next URL until next is null', async () => {
    await addWorkspaces(44);
    const first = await get('/api/v1/workspaces');
    expect(first.json().data).toHaveLength(20);
    const seen: string[] = [];
    let url: string | null = 'http://localhost/api/v1/workspaces?limit=7';
    let pages = 0;
    while (url) {
      const u: URL = new URL(url);
      expect(u.pathname).toBe('/api/v1/workspaces');
      const res = await get(u.pathname + u.search);
      expect(res.statusCode).toBe(200);
      const body = res.json();
      seen.push(...body.data.map((w: { name: string }) => w.name));
      url = body.next;
      pages++;
    }
    expect(pages).toBe(7);
    expect(seen).toHaveLength(45);
    expect(new Set(seen).size).toBe(45);
  });

  it('next is a full URL carrying the filters', async () => {
    await addWorkspaces(5, 'team');
    const res = await get('/api/v1/workspaces?limit=2&name_contains=TEAM&status=active');
    const next = new URL(res.json().next);
    expect(next.protocol).toBe('http:');
    expect(next.searchParams.get('name_contains')).toBe('TEAM');
    expect(next.searchParams.get('status')).toBe('active');
    expect(next.searchParams.get('limit')).toBe('2');
    expect(next.searchParams.get('cursor')).toBeTruthy();
  });

  it('rejects limit over 100, under 1, not a number, and a forged cursor', async () => {
    for (const q of ['limit=101', 'limit=0', 'limit=abc', 'cursor=bm9wZQ']) {
      const res = await get(`/api/v1/workspaces?${q}`);
      expect(res.statusCode, q).toBe(400);
      expect(res.json().errors[0].field, q).toMatch(/^query\.(limit|cursor)$/);
    }
    expect((await get('/api/v1/workspaces?limit=100')).statusCode).toBe(200);
  });

  it('refuses a well-formed cursor it did not issue, and one edited or carried to another service', async () => {
    await addWorkspaces(3, 'page');
    const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');
    const issued = new URL((await get('/api/v1/workspaces?limit=1')).json().next).searchParams.get('cursor')!;
    expect((await get(`/api/v1/workspaces?limit=1&cursor=${issued}`)).statusCode).toBe(200);
    // The same kind of cursor from another service (another signing key) is not one this service issued.
    const other = await createTestService();
    await createWorkspace(other.store.db as Kysely<CoreTables>, other.org.organizationId, 'elsewhere', new Date());
    const page = await other.app.inject({
      method: 'GET',
      url: '/api/v1/workspaces?limit=1',
      headers: await other.auth(),
    });
    const foreign = new URL(page.json().next).searchParams.get('cursor')!;
    await other.close();
    const forged = [
      b64(['2000-01-01T00:00:00.000Z', '00000000-0000-0000-0000-000000000000']),
      b64(['', '']),
      issued.slice(0, -1) + (issued.endsWith('A') ? 'B' : 'A'),
      `${b64(['2000-01-01T00:00:00.000Z', 'x'])}${issued.slice(-22)}`,
      foreign,
    ];
    for (const cursor of forged) {
      const res = await get(`/api/v1/workspaces?cursor=${encodeURIComponent(cursor)}`);
      expect(res.statusCode, cursor).toBe(400);
      expect(res.json().errors[0]).toMatchObject({ field: 'query.cursor', error_code: 'invalid_cursor' });
    }
  });

  it('filters by name_contains (case-insensitive, wildcards literal) and status', async () => {
    await addWorkspaces(3, 'sales');
    await addWorkspaces(2, 'ops');
    await createWorkspace(svc.store.db as Kysely<CoreTables>, svc.org.organizationId, '100%_done', new Date());
    const sales = await get('/api/v1/workspaces?name_contains=SALES');
    expect(sales.json().data.map((w: { name: string }) => w.name)).toEqual(['sales-000', 'sales-001', 'sales-002']);
    const pct = await get(`/api/v1/workspaces?name_contains=${encodeURIComponent('%_')}`);
    expect(pct.json().data.map((w: { name: string }) => w.name)).toEqual(['100%_done']);
    const opsId = (await get('/api/v1/workspaces?name_contains=ops-001')).json().data[0].id;
    await svc.app.inject({
      method: 'PUT',
      url: `/api/v1/workspaces/${opsId}`,
      headers,
      payload: { status: 'inactive' },
    });
    const inactive = await get('/api/v1/workspaces?status=inactive');
    expect(inactive.json().data.map((w: { name: string }) => w.name)).toEqual(['ops-001']);
    expect((await get('/api/v1/workspaces?status=paused')).statusCode).toBe(400);
  });

  it('gets one workspace; 404 for unknown', async () => {
    const res = await get(`/api/v1/workspaces/${svc.org.defaultWorkspaceId}`);
    expect(res.statusCode).toBe(200);
    expect(res.json().name).toBe('default');
    expect((await get('/api/v1/workspaces/nope')).statusCode).toBe(404);
  });

  it('updates name, status and cache_enabled (null = inherit)', async () => {
    const url = `/api/v1/workspaces/${svc.org.defaultWorkspaceId}`;
    svc.clock.set(new Date('2031-05-05T05:05:05.000Z'));
    const res = await svc.app.inject({
      method: 'PUT',
      url,
      headers: await svc.auth(),
      payload: { name: 'main', status: 'inactive', cache_enabled: true },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      name: 'main',
      status: 'inactive',
      cache_enabled: true,
      updated_at: '2031-05-05T05:05:05.000Z',
    });
    const back = await svc.app.inject({
      method: 'PUT',
      url,
      headers: await svc.auth(),
      payload: { cache_enabled: null, status: 'active' },
    });
    expect(back.json()).toMatchObject({ name: 'main', status: 'active', cache_enabled: null });
  });

  it('rejects bad update bodies and name clashes', async () => {
    const url = `/api/v1/workspaces/${svc.org.defaultWorkspaceId}`;
    const bad = await svc.app.inject({
      method: 'PUT',
      url,
      headers,
      payload: { status: 'paused', cache_enabled: 'yes', owner: 'me' },
    });
    expect(bad.statusCode).toBe(400);
    expect(
      bad
        .json()
        .errors.map((e: { field: string }) => e.field)
        .sort(),
    ).toEqual(['cache_enabled', 'owner', 'status']);
    await addWorkspaces(1, 'taken');
    const clash = await svc.app.inject({ method: 'PUT', url, headers, payload: { name: 'taken-000' } });
    expect(clash.statusCode).toBe(409);
    expect(clash.json().errors[0]).toMatchObject({ field: 'name', error_code: 'conflict' });
    expect((await get(url)).json().name).toBe('default');
  });

  it('soft-deletes: {id, deleted_at}, then gone from lists, lookups and connector lookups', async () => {
    await addWorkspaces(1, 'temp');
    const ws = (await get('/api/v1/workspaces?name_contains=temp')).json().data[0];
    const connectorId = await svc.createConnector('echo', { workspace: 'temp-000' });
    svc.clock.set(new Date('2032-01-01T00:00:00.000Z'));
    const del = await svc.app.inject({
      method: 'DELETE',
      url: `/api/v1/workspaces/${ws.id}`,
      headers: await svc.auth(),
    });
    expect(del.statusCode).toBe(200);
    expect(del.json()).toEqual({ id: ws.id, deleted_at: '2032-01-01T00:00:00.000Z' });
    const h = await svc.auth();
    expect((await get(`/api/v1/workspaces/${ws.id}`, h)).statusCode).toBe(404);
    expect((await get('/api/v1/workspaces', h)).json().data.map((w: { name: string }) => w.name)).toEqual(['default']);
    expect((await get('/api/v1/integrations/connectors?workspace_name=temp-000', h)).statusCode).toBe(404);
    expect((await get(`/api/v1/integrations/connectors/${connectorId}`, h)).statusCode).toBe(404);
    expect(
      (await svc.app.inject({ method: 'DELETE', url: `/api/v1/workspaces/${ws.id}`, headers: h })).statusCode,
    ).toBe(404);
    // The row stays (soft delete), marked deleted.
    const row = await svc.store.db
      .selectFrom('workspaces')
      .select('deleted_at')
      .where('id', '=', ws.id)
      .executeTakeFirstOrThrow();
    expect(row.deleted_at).toBe('2032-01-01T00:00:00.000Z');
  });

  it('counts live workspaces by status', async () => {
    await addWorkspaces(3, 'extra');
    const id = (await get('/api/v1/workspaces?name_contains=extra-001')).json().data[0].id;
    await svc.app.inject({ method: 'PUT', url: `/api/v1/workspaces/${id}`, headers, payload: { status: 'inactive' } });
    const gone = (await get('/api/v1/workspaces?name_contains=extra-002')).json().data[0].id;
    await svc.app.inject({ method: 'DELETE', url: `/api/v1/workspaces/${gone}`, headers });
    const res = await get('/api/v1/workspaces/stats');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ active_count: 2, inactive_count: 1, total_count: 3 });
    const other = await svc.createOrg();
    expect((await get('/api/v1/workspaces/stats', await other.auth())).json()).toEqual({
      active_count: 1,
      inactive_count: 0,
      total_count: 1,
    });
  });

  it('isolates organizations', async () => {
    const other = await svc.createOrg();
    const oh = await other.auth();
    const url = `/api/v1/workspaces/${svc.org.defaultWorkspaceId}`;
    expect((await get(url, oh)).statusCode).toBe(404);
    expect((await svc.app.inject({ method: 'PUT', url, headers: oh, payload: { name: 'hijack' } })).statusCode).toBe(
      404,
    );
    expect((await svc.app.inject({ method: 'DELETE', url, headers: oh })).statusCode).toBe(404);
    const list = (await get('/api/v1/workspaces', oh)).json().data;
    expect(list.map((w: { id: string }) => w.id)).toEqual([other.defaultWorkspaceId]);
    expect((await get(url)).json().name).toBe('default');
  });
});
