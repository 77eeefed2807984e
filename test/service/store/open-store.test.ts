import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import type { Migration } from '../../../src/service/core/store.js';
import { openServiceStore as openStore } from '../../../src/service/compose.js';
import { ensureApplication } from '../../../src/service/store/provision.js';
import { createConnector } from '../../../src/service/store/connectors.js';
import { echoDb, echoMigrations } from '../support/echo-connector.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
function tempDb(): string {
  const d = mkdtempSync(join(tmpdir(), 'recipe-store-'));
  dirs.push(d);
  return join(d, 'test.db');
}

describe('openStore', () => {
  it('creates the core tables and records applied migrations', async () => {
    const store = await openStore({ path: ':memory:' });
    const tables = await sql<{
      name: string;
    }>`select name from sqlite_master where type = 'table' order by name`.execute(store.db);
    const names = tables.rows.map((r) => r.name);
    for (const t of ['organizations', 'applications', 'signing_keys', 'workspaces', 'connectors', 'schema_migrations'])
      expect(names).toContain(t);
    const applied = await store.db
      .withTables<{ schema_migrations: { name: string } }>()
      .selectFrom('schema_migrations')
      .select('name')
      .execute();
    expect(applied.map((r) => r.name)).toContain('000-core');
    await store.close();
  });

  it('uses WAL and enforces foreign keys on a file database', async () => {
    const store = await openStore({ path: tempDb() });
    const mode = await sql<{ journal_mode: string }>`pragma journal_mode`.execute(store.db);
    expect(mode.rows[0]?.journal_mode).toBe('wal');
    const fk = await sql<{ foreign_keys: number }>`pragma foreign_keys`.execute(store.db);
    expect(fk.rows[0]?.foreign_keys).toBe(1);
    // A new file gets the service's page size (store/sqlite.ts).
    const page = await sql<{ page_size: number }>`pragma page_size`.execute(store.db);
    expect(page.rows[0]?.page_size).toBe(16_384);
    // Checkpoints every 8,192 log pages, and the log cut back to 64 MiB after one (store/sqlite.ts).
    const every = await sql<{ wal_autocheckpoint: number }>`pragma wal_autocheckpoint`.execute(store.db);
    expect(every.rows[0]?.wal_autocheckpoint).toBe(8192);
    const limit = await sql<{ journal_size_limit: number }>`pragma journal_size_limit`.execute(store.db);
    expect(limit.rows[0]?.journal_size_limit).toBe(64 * 1024 * 1024);
    await expect(
      store.db
        .insertInto('workspaces')
        .values({
          id: 'w',
          organization_id: 'no-such-org',
          name: 'x',
          status: 'active',
          cache_enabled: null,
          created_at: 'a',
          updated_at: 'a',
          deleted_at: null,
        })
        .execute(),
    ).rejects.toThrow(/FOREIGN KEY/);
    await store.close();
  });

  it('runs extra migrations in name order, once each, across reopen', async () => {
    const path = tempDb();
    const order: string[] = [];
    const mk = (name: string): Migration => ({
      name,
      async up(db) {
        order.push(name);
        await db.schema
          .createTable(`t_${name.replace(/-/g, '_')}`)
          .addColumn('id', 'text')
          .execute();
      },
    });
    const migrations = [mk('500-b'), mk('400-a')];
    const s1 = await openStore({ path, migrations });
    await s1.close();
    const s2 = await openStore({ path, migrations });
    await s2.close();
    expect(order).toEqual(['400-a', '500-b']);
  });

  it('refuses duplicate migration names before running any', async () => {
    const m: Migration = { name: '700-dup', up: async () => undefined };
    await expect(openStore({ path: ':memory:', migrations: [m, m] })).rejects.toThrow(
      /duplicate migration name "700-dup"/,
    );
  });

  it('a failing transaction changes nothing', async () => {
    const store = await openStore({ path: ':memory:' });
    await expect(
      store.transaction(async (trx) => {
        await trx.insertInto('organizations').values({ id: 'o1', name: 'x', created_at: 'now' }).execute();
        throw new Error('abort');
      }),
    ).rejects.toThrow('abort');
    const rows = await store.db.selectFrom('organizations').selectAll().execute();
    expect(rows).toEqual([]);
    await store.close();
  });

  it('deleting a connector cascades to connector-type tables', async () => {
    const store = await openStore({ path: ':memory:', migrations: echoMigrations });
    const org = await ensureApplication(store, { clientId: 'c', clientSecret: 's' }, new Date());
    const c = await createConnector(
      store.db,
      {
        organizationId: org.organizationId,
        workspaceId: org.defaultWorkspaceId,
        definitionId: 'd',
        name: 'n',
        credentials: { token: 't' },
      },
      new Date(),
    );
    await echoDb(store.db).insertInto('echo_things').values({ connector_id: c.id, id: '1', label: 'a' }).execute();
    await store.db.deleteFrom('connectors').where('id', '=', c.id).execute();
    expect(await echoDb(store.db).selectFrom('echo_things').selectAll().execute()).toEqual([]);
    await store.close();
  });

  it('stores only a salted hash of the client secret', async () => {
    const store = await openStore({ path: ':memory:' });
    await ensureApplication(store, { clientId: 'c1', clientSecret: 'very-secret-value' }, new Date());
    const row = await store.db.selectFrom('applications').selectAll().executeTakeFirstOrThrow();
    expect(JSON.stringify(row)).not.toContain('very-secret-value');
    expect(row.secret_salt.length).toBeGreaterThan(10);
    await store.close();
  });
});
