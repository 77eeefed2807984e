import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { filesConnector } from '../../../src/service/connectors/files/index.js';
import type { ContextStoreTimings } from '../../../src/service/context-store/index.js';
import { startService, type RunningService } from '../../../src/service/start.js';
import { waitFor } from './support/harness.js';
import { insertPeople, peopleConnector, peopleMigration } from './support/people-connector.js';

const dirs: string[] = [];
const running: RunningService[] = [];
afterEach(async () => {
  for (const r of running.splice(0)) await r.close();
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

const creds = { clientId: 'restart-client', clientSecret: 'restart-secret-0123456789' };

async function start(db: string, contextStore: ContextStoreTimings): Promise<RunningService> {
  const r = await startService({
    db,
    ...creds,
    connectorTypes: [peopleConnector, filesConnector],
    migrations: [peopleMigration],
    contextStore: { flushIntervalMs: 10, ...contextStore },
  });
  running.push(r);
  return r;
}

async function auth(r: RunningService) {
  const res = await r.app.inject({
    method: 'POST',
    url: '/api/v1/account/applications/token',
    payload: { client_id: creds.clientId, client_secret: creds.clientSecret },
  });
  return { authorization: `Bearer ${res.json().access_token}` };
}

async function status(r: RunningService, id: string) {
  const res = await r.app.inject({
    method: 'GET',
    url: `/api/v1/integrations/connectors/${id}/inspect`,
    headers: await auth(r),
  });
  return res.json();
}

async function search(r: RunningService, id: string, query: object) {
  return r.app.inject({
    method: 'POST',
    url: `/api/v1/integrations/connectors/${id}/execute`,
    headers: await auth(r),
    payload: { entity: 'people', action: 'context_store_search', params: { query } },
  });
}

const searchAll = (r: RunningService, id: string) => search(r, id, {});

async function closeLast(r: RunningService) {
  running.splice(running.indexOf(r), 1);
  await r.close();
}

/** A database file in a folder of its own, removed after the test. */
function newDb(): string {
  const dir = mkdtempSync(join(tmpdir(), 'cs-restart-'));
  dirs.push(dir);
  return join(dir, 'service.db');
}

/** Creates a people connector; its id. */
async function createPeople(r: RunningService): Promise<string> {
  const created = await r.app.inject({
    method: 'POST',
    url: '/api/v1/integrations/connectors',
    headers: await auth(r),
    payload: { workspace_name: 'default', connector_type: 'people' },
  });
  return created.json().id as string;
}

/** A people connector with `count` records (first names prefix0, prefix1, ...), its index Ready; its id. */
async function readyPeople(r: RunningService, count: number, prefix: string): Promise<string> {
  const id = await createPeople(r);
  await insertPeople(
    r,
    id,
    Array.from({ length: count }, (_, i) => ({ properties: { firstname: `${prefix}${i}` } })),
  );
  await waitFor('Ready', async () => (await status(r, id)).context_store_status === 'Ready');
  return id;
}

describe('context store across restarts', () => {
  it('keeps readiness and the index: a Ready store answers at once after reopening', async () => {
    const db = newDb();
    const first = await start(db, { batchSize: 20 });
    const id = await readyPeople(first, 50, 'R');
    // A write just before closing is applied on close (queued changes are flushed).
    await first.app.inject({
      method: 'POST',
      url: `/api/v1/integrations/connectors/${id}/execute`,
      headers: await auth(first),
      payload: { entity: 'people', action: 'create', params: { properties: { firstname: 'Last' } } },
    });
    await closeLast(first);

    // Reopen with the indexer held at Loading: anything not persisted could not come back.
    const second = await start(db, { hold: 'Loading' });
    const report = await status(second, id);
    expect(report.context_store_status).toBe('Ready');
    expect(report.context_store_readiness.configured_cache_entities[0].entity_count).toBe(51);
    const res = await searchAll(second, id);
    expect(res.statusCode).toBe(200);
    expect(res.json().result.data.map((d: any) => d.properties.firstname)).toContain('Last');
  });

  it('resumes an unfinished build after a restart without duplicating records', async () => {
    const db = newDb();
    const first = await start(db, { batchSize: 10, previewSize: 20, hold: 'Preview' });
    const id = await createPeople(first);
    await insertPeople(
      first,
      id,
      Array.from({ length: 75 }, (_, i) => ({ properties: { firstname: `S${i}` } })),
    );
    await waitFor('Preview', async () => (await status(first, id)).context_store_status === 'Preview');
    await closeLast(first);

    const second = await start(db, { batchSize: 10, previewSize: 20 });
    expect((await status(second, id)).context_store_status).toMatch(/Preview|Ready/);
    await waitFor('Ready', async () => (await status(second, id)).context_store_status === 'Ready');
    const ids = (await searchAll(second, id)).json().result.data.map((d: any) => d.id);
    expect(ids).toHaveLength(75);
    expect(new Set(ids).size).toBe(75);
  });

  it("rebuilds the index of a database whose value rows are in the previous release's form", async () => {
    const db = newDb();
    const first = await start(db, { batchSize: 20 });
    const id = await readyPeople(first, 30, 'U');
    await closeLast(first);

    // What migration 034 left, with its rows: value rows keyed by connector, entity, id and field name.
    const raw = new Database(db);
    raw.exec(`DROP TABLE cs_values; DROP TABLE cs_fields;
      CREATE TABLE cs_values (connector_id TEXT NOT NULL REFERENCES connectors(id) ON DELETE CASCADE,
        entity TEXT NOT NULL, id TEXT NOT NULL, field TEXT NOT NULL, kind INTEGER NOT NULL, num REAL NOT NULL,
        text TEXT NOT NULL, PRIMARY KEY (connector_id, entity, id, field)) WITHOUT ROWID;
      CREATE INDEX cs_values_sort ON cs_values (connector_id, entity, field, kind, num, text, id);
      INSERT INTO cs_values SELECT connector_id, entity, id, 'properties.firstname', 1, 0, doc->>'$.properties.firstname' FROM cs_docs;
      DELETE FROM schema_migrations WHERE name = '037-context-store-integer-value-keys';`);
    raw.close();

    const second = await start(db, { batchSize: 20 });
    await waitFor('Ready', async () => (await status(second, id)).context_store_status === 'Ready');
    const res = await search(second, id, {
      filter: { eq: { 'properties.firstname': 'U7' } },
      sort: [{ 'properties.firstname': 'desc' }],
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().result.data.map((d: any) => d.properties.firstname)).toEqual(['U7']);
    const all = (await searchAll(second, id)).json().result.data.map((d: any) => d.id);
    expect(new Set(all).size).toBe(30);
  });

  it("refills the trigram index of a database in the previous release's form, without a rebuild", async () => {
    const db = newDb();
    const first = await start(db, { batchSize: 20 });
    const id = await readyPeople(first, 30, 'Like');
    await closeLast(first);

    // What migration 038 made: contentless, one row per field (rowid = document × 1024 + field), here with
    // a stale row only.
    const raw = new Database(db);
    raw.exec(`DROP TRIGGER cs_like_delete; DROP TABLE cs_like;
      CREATE VIRTUAL TABLE cs_like USING fts5(body, content='', contentless_delete=1, detail=none, tokenize='trigram');
      CREATE TRIGGER cs_like_delete AFTER DELETE ON cs_docs BEGIN
        DELETE FROM cs_like WHERE rowid BETWEEN old.rowid * 1024 AND old.rowid * 1024 + 1023; END;
      INSERT INTO cs_like (rowid, body) VALUES (1, 'stale');
      DELETE FROM schema_migrations WHERE name = '039-context-store-like-row-per-document';`);
    raw.close();

    const second = await start(db, { batchSize: 20 });
    expect((await status(second, id)).context_store_status).toBe('Ready');
    const like = async (value: string) => {
      const res = await search(second, id, { filter: { like: { 'properties.firstname': value } } });
      expect(res.statusCode, res.body).toBe(200);
      return res
        .json()
        .result.data.map((d: any) => d.properties.firstname)
        .sort();
    };
    // Rare trigrams ("e17", "e29"): these are looked up in the trigram index.
    expect(await like('like17')).toEqual(['Like17']);
    expect(await like('E29')).toEqual(['Like29']);
    expect(await like('stale')).toEqual([]);
    await closeLast(second);
    // One row per document now, and the stale row is gone.
    const after = new Database(db, { readonly: true });
    const count = (where: string) => after.prepare(`SELECT count(*) FROM cs_like ${where}`).pluck().get();
    expect(count('')).toBe(30);
    expect(count(`WHERE cs_like MATCH '"sta" AND "tal" AND "ale"'`)).toBe(0);
    expect(count(`WHERE cs_like MATCH '"e17"'`)).toBe(1);
    after.close();
  });
});
