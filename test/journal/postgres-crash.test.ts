import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPostgresJournal, type JournalStore, type RunJournal } from '../../src/journal/index.js';
import { end, entry, outcome, start } from './store-contract.js';
import { startPostgresServer, type PostgresServer } from '../helpers/postgres-server.js';

// PostgreSQL itself SIGKILLed (the postmaster and every backend at once) while three runs append to the journal,
// then started again on the same data directory (crash recovery): every append the journal acknowledged (an
// intend that resolved) is there, nothing is there twice, and the runs resume. (The whole fleet's version of
// this, with workers and the queue, is in the fleet suite.)
let server: PostgresServer;
const LEASE_MS = 1500;

beforeAll(async () => {
  server = await startPostgresServer();
  // The database's default is asynchronous commit (an acknowledged commit could still be in PostgreSQL's memory
  // when it is killed): the journal must make its own transactions durable regardless.
  const admin = new pg.Client({ connectionString: server.url });
  await admin.connect();
  await admin.query('ALTER DATABASE postgres SET synchronous_commit = off');
  await admin.end();
});
afterAll(async () => {
  await server?.stop();
});

/** What one run's appender did: the writes it was told were durable, and the one in flight when it failed. */
interface Appended {
  readonly runId: string;
  readonly acked: string[];
  readonly tried: string[];
  failure?: unknown;
}

/** Intends a write (acknowledged once durable), then records its answer (batched), until the journal fails. */
async function appendUntilFailure(run: RunJournal, log: Appended): Promise<void> {
  for (let i = 0; ; i++) {
    const key = `items[${i}].w#0`;
    log.tried.push(key);
    try {
      await run.intend(entry(key, true));
    } catch (err) {
      log.failure = err;
      return;
    }
    log.acked.push(key);
    await run.record(entry(key, true), outcome(key));
  }
}

// A longer timeout than the suite's: a crash, WAL replay and leases running out, on a machine others share.
describe('the journal on PostgreSQL, through a crash of PostgreSQL', () => {
  it('keeps every acknowledged append, once, after PostgreSQL is SIGKILLed and recovers; the runs resume', async () => {
    const before: JournalStore = await openPostgresJournal(server.url, { schema: 'crash', leaseMs: LEASE_MS });
    const logs: Appended[] = ['c1', 'c2', 'c3'].map((runId) => ({ runId, acked: [], tried: [] }));
    const runs = await Promise.all(logs.map((l) => before.begin(start(l.runId))));
    const appending = Promise.all(runs.map((run, i) => appendUntilFailure(run, logs[i] as Appended)));
    // Kill it mid-stream: once 150 appends were acknowledged, while all three runs keep appending.
    while (logs.reduce((n, l) => n + l.acked.length, 0) < 150) {
      if (logs.some((l) => l.failure !== undefined))
        throw new Error(`an append failed before the crash: ${String(logs.find((l) => l.failure)?.failure)}`);
      await new Promise((r) => setTimeout(r, 5));
    }
    await server.kill9();
    await appending;
    // Each run stopped on its first failed append, with J009 (the journal cannot vouch for the run any more).
    for (const l of logs) expect(l.failure).toMatchObject({ code: 'J009' });
    await before.close();

    await server.restart();
    const after = await openPostgresJournal(server.url, { schema: 'crash', leaseMs: LEASE_MS });
    try {
      for (const l of logs) {
        const calls = await after.listExchanges(l.runId);
        const keys = calls.map((c) => c.call_key);
        // Every acknowledged intent survived; nothing is there twice; nothing is there that was never appended.
        expect(keys.filter((k) => l.acked.includes(k)).sort()).toEqual([...l.acked].sort());
        expect(new Set(keys).size).toBe(keys.length);
        for (const k of keys) expect(l.tried).toContain(k);
        // At most the write in flight at the crash is there unacknowledged (its commit may have made it).
        expect(keys.length - l.acked.length).toBeLessThanOrEqual(1);
        // One order: seqs unique and increasing with the appends.
        const seqs = calls.map((c) => c.seq);
        expect(new Set(seqs).size).toBe(seqs.length);
        // Every write but the last one or two had its answer committed before the next intent was acknowledged.
        const answered = calls.filter((c) => c.state === 'answered').length;
        expect(answered).toBeGreaterThanOrEqual(l.acked.length - 1);
        const inDoubt = (await after.writesInDoubt(l.runId)).map((c) => c.call_key);
        expect(inDoubt.length).toBeLessThanOrEqual(2);
        for (const k of inDoubt) expect(l.tried.slice(-2)).toContain(k);
      }
      // The dead holders' leases run out (by the database's clock, which the crash did not reset); the runs resume.
      for (const l of logs) {
        for (let i = 0; i < 60 && (await after.getRun(l.runId))?.status !== 'interrupted'; i++)
          await new Promise((r) => setTimeout(r, 100));
        expect((await after.getRun(l.runId))?.status).toBe('interrupted');
        const again = await after.resume(l.runId, { kind: 'resume', started_at: 2, options: {} });
        expect(again.attempt).toBe(2);
        const next = `items[${l.tried.length}].w#0`;
        await again.intend(entry(next, true));
        await again.record(entry(next, true), outcome(next));
        await again.finish(end);
        const run = await after.getRun(l.runId);
        expect(run?.status).toBe('succeeded');
        expect((await after.listExchanges(l.runId)).map((c) => c.call_key)).toContain(next);
      }
    } finally {
      await after.close();
    }
  }, 120_000);
});
