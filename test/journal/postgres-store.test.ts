import { spawn } from 'node:child_process';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { openPostgresJournal, type JournalStore, type PostgresJournalOptions } from '../../src/journal/index.js';
import { end, entry, journalStoreContract, start } from './store-contract.js';
import { extractBlocks } from '../docs/doc-examples.js';
import { startPostgresServer, type PostgresServer } from '../helpers/postgres-server.js';

// The journal's contract (store-contract.ts, which every backend runs) against a real PostgreSQL, and what
// only the PostgreSQL store has: migrations at open, leases on the database's clock that run out, fencing.
let server: PostgresServer;
let admin: pg.Client;
let schemas = 0;
const stores: JournalStore[] = [];

beforeAll(async () => {
  server = await startPostgresServer();
  admin = new pg.Client({ connectionString: server.url });
  await admin.connect();
});
afterAll(async () => {
  await admin?.end();
  await server?.stop();
});
afterEach(async () => {
  for (const s of stores.splice(0)) await s.close();
});

/** A journal of its own per test (its own schema); `leaseMs` short where a test waits for it. */
async function open(schema = `j${++schemas}`, options: PostgresJournalOptions = {}): Promise<JournalStore> {
  const s = await openPostgresJournal(server.url, { schema, recipesDir: '/r', maxConnections: 4, ...options });
  stores.push(s);
  return s;
}

describe('PostgreSQL journal store', () => {
  journalStoreContract({
    fresh: () => {
      const schema = `j${++schemas}`;
      return { open: () => open(schema) };
    },
  });

  it('migrates at open, once, with several workers opening a new journal at the same time', async () => {
    const opened = await Promise.all(Array.from({ length: 6 }, () => open('together')));
    expect(opened).toHaveLength(6);
    const versions = await admin.query('SELECT version FROM together.schema_version ORDER BY version');
    expect(versions.rows).toEqual([{ version: 1 }, { version: 2 }, { version: 3 }, { version: 4 }]);
    // Opening again applies nothing (idempotent) and the journal works.
    await (await (await open('together')).begin(start('m1'))).finish(end);
    expect((await admin.query('SELECT count(*)::int AS n FROM together.schema_version')).rows).toEqual([{ n: 4 }]);
    expect((await (await open('together')).getRun('m1'))?.status).toBe('succeeded');
  });

  it('brings a journal of an older version up to date at open, keeping its runs', async () => {
    await (await (await open('older')).begin(start('kept'))).finish(end);
    // As a journal written before migration 2 (append_batch) was: its runs, no function, no cancels, no folded
    // parts, version 1.
    await admin.query('DROP FUNCTION older.append_batch');
    await admin.query('DROP TABLE older.cancels');
    await admin.query('DROP TRIGGER parts_unfold ON older.parts');
    await admin.query('DROP FUNCTION older.unfold_part');
    await admin.query('ALTER TABLE older.parts DROP COLUMN folded');
    await admin.query('DELETE FROM older.schema_version WHERE version >= 2');
    const store = await open('older');
    expect((await admin.query('SELECT version FROM older.schema_version ORDER BY version')).rows).toEqual([
      { version: 1 },
      { version: 2 },
      { version: 3 },
      { version: 4 },
    ]);
    expect((await store.getRun('kept'))?.status).toBe('succeeded');
    const run = await store.begin(start('new'));
    await run.intend(entry('w#0', true));
    await run.finish(end);
    expect((await store.listExchanges('new')).map((e) => e.call_key)).toEqual(['w#0']);
  });

  it('refuses a journal written by a newer recipe, and a bad schema name (J007)', async () => {
    await open('newer');
    await admin.query('INSERT INTO newer.schema_version (version) VALUES (99)');
    await expect(open('newer')).rejects.toMatchObject({ code: 'J007', message: expect.stringMatching(/newer recipe/) });
    await expect(open('Bad-Name')).rejects.toMatchObject({ code: 'J007' });
  });

  it('says why it cannot reach PostgreSQL (J007), never showing the password', async () => {
    const err = await openPostgresJournal('postgres://me:s3cret@127.0.0.1:1/db').catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'J007' });
    expect(String((err as Error).message)).not.toContain('s3cret');
    expect(String((err as Error).message)).toContain('127.0.0.1:1');
  });

  it("keeps recipe paths relative to the recipes directory, read back as this worker's own", async () => {
    const store = await open('paths');
    await (await store.begin(start('p1'))).finish(end);
    expect((await admin.query("SELECT file FROM paths.runs WHERE run_id = 'p1'")).rows).toEqual([
      { file: 'notes.yaml' },
    ]);
    expect((await store.getRun('p1'))?.file).toBe('/r/notes.yaml');
    expect((await store.getRun('p1'))?.files).toEqual([{ path: '/r/notes.yaml', sha256: 'ab' }]);
  });

  it('shows a run whose worker died as interrupted once its lease runs out, and lets another resume it', async () => {
    // A child process (dist/, as built by `npm run build`) begins a run and is killed while holding it.
    const child = spawn(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        `const { openPostgresJournal } = await import(${JSON.stringify(new URL('../../dist/journal/index.js', import.meta.url).pathname)});
         const s = await openPostgresJournal(${JSON.stringify(server.url)}, { schema: 'died', leaseMs: 600 });
         await s.begin(${JSON.stringify(start('held'))});
         process.stdout.write('held\\n');
         setInterval(() => {}, 1000);`,
      ],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    await new Promise<void>((resolve, reject) => {
      child.stdout.on('data', () => resolve());
      child.once('exit', (code) => reject(new Error(`the child exited (${String(code)}) before holding the run`)));
    });
    const store = await open('died', { leaseMs: 600 });
    expect((await store.getRun('held'))?.status).toBe('running');
    // Held past its lease's period: the child renews it.
    await new Promise((r) => setTimeout(r, 900));
    await expect(store.resume('held', { kind: 'resume', started_at: 2, options: {} })).rejects.toMatchObject({
      code: 'J003',
    });
    child.kill('SIGKILL');
    await new Promise((resolve) => child.on('exit', resolve));
    for (let i = 0; i < 50 && (await store.getRun('held'))?.status !== 'interrupted'; i++)
      await new Promise((r) => setTimeout(r, 100));
    expect((await store.getRun('held'))?.status).toBe('interrupted');
    expect((await store.listRuns({ status: 'interrupted' })).map((r) => r.run_id)).toEqual(['held']);
    const again = await store.resume('held', { kind: 'resume', started_at: 3, options: { allow_changed: false } });
    expect([again.attempt, again.resuming]).toEqual([2, true]);
    expect((await store.getRun('held'))?.status).toBe('running');
    await again.finish(end);
    expect((await store.listAttempts('held')).map((a) => [a.attempt, a.kind, a.status])).toEqual([
      [1, 'run', 'interrupted'],
      [2, 'resume', 'succeeded'],
    ]);
    expect((await admin.query("SELECT count(*)::int AS n FROM died.leases WHERE run_id = 'held'")).rows).toEqual([
      { n: 0 },
    ]);
  });

  it('fences a worker that lost its lease: its batch checks the lease first and writes nothing (J009)', async () => {
    const store = await open('fence');
    const first = await store.begin(start('f'));
    // The holder stalls; its lease is taken from under it (as after an expiry and another worker's resume).
    await admin.query("UPDATE fence.leases SET token = 'someone-else' WHERE run_id = 'f'");
    await expect(first.intend(entry('w#0', true))).rejects.toMatchObject({ code: 'J009' });
    expect(await store.listExchanges('f')).toEqual([]);
    await first.release();
    // The new holder's lease is untouched by the old holder letting go.
    expect((await admin.query("SELECT token FROM fence.leases WHERE run_id = 'f'")).rows).toEqual([
      { token: 'someone-else' },
    ]);
  });

  it("numbers a run's events from the database, shared by parts held through other stores (other workers)", async () => {
    const a = await open('shared');
    const b = await open('shared');
    const run = await a.begin(start('s'));
    const part = await b.holdPart('s', 'chunk-0');
    await run.intend(entry('a#0', true));
    await part.intend(entry('items[0].w#0', true));
    await run.intend(entry('a#1', true));
    await part.finish({ ...end, requests: 1, writes: 1 });
    await run.finish(end);
    expect((await a.listExchanges('s')).map((e) => [e.call_key, e.seq])).toEqual([
      ['a#0', 1],
      ['items[0].w#0', 2],
      ['a#1', 3],
    ]);
    expect(await b.getRun('s')).toMatchObject({ status: 'succeeded', requests: 3, writes: 2 });
  });

  it('runs the SQL docs/fleet.md shows for looking at the journal with psql (default schema recipe_journal)', async () => {
    const store = await openPostgresJournal(server.url, { maxConnections: 2 });
    stores.push(store);
    await (await store.begin(start('shown'))).finish(end);
    const held = await store.begin(start('live', 1_700_000_000_500));
    const queries = extractBlocks('docs/fleet.md').filter(
      (b) => b.lang === 'sql' && b.text.includes('recipe_journal.'),
    );
    expect(queries.length).toBeGreaterThanOrEqual(2);
    const results = [];
    for (const q of queries) results.push((await admin.query(q.text)).rows);
    expect(results[0]?.map((r: { run_id: string }) => r.run_id)).toEqual(['live', 'shown']);
    expect(results[1]?.map((r: { run_id: string }) => r.run_id)).toEqual(['live']);
    await held.release();
  });

  it('a test that cannot start PostgreSQL fails and says why (the helper never skips)', async () => {
    const saved = process.env.PG_BIN;
    process.env.PG_BIN = '/nonexistent/postgresql/bin';
    try {
      await expect(startPostgresServer()).rejects.toThrow(/cannot start PostgreSQL: .*initdb/);
    } finally {
      if (saved === undefined) delete process.env.PG_BIN;
      else process.env.PG_BIN = saved;
    }
  });
});
