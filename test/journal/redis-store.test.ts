import { spawn } from 'node:child_process';
import type { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { connectRedisNow, openFleetJournal } from '../../src/fleet/redis.js';
import type { JournalStore } from '../../src/journal/index.js';
import { end, entry, journalStoreContract, start } from './store-contract.js';
import { startRedisServer, type RedisServer } from '../helpers/redis-server.js';

// The journal's contract (store-contract.ts, which every backend runs) against a real redis-server, and what
// only the Redis store has: leases that run out, fencing, paths under the recipes dir.
let server: RedisServer;
let redis: Redis;
let queue = 0;
const stores: JournalStore[] = [];

beforeAll(async () => {
  server = await startRedisServer();
  redis = await connectRedisNow(server.url);
});
afterAll(async () => {
  await redis?.quit();
  await server?.stop();
});
afterEach(async () => {
  for (const s of stores.splice(0)) await s.close();
});

/** A journal of its own per test (its own queue's prefix); `leaseMs` short where a test waits for it. */
function open(name = `q${++queue}`, leaseMs?: number): JournalStore {
  const s = openFleetJournal(redis, { queue: name, recipesDir: '/r', ...(leaseMs ? { leaseMs } : {}) });
  stores.push(s);
  return s;
}

describe('Redis journal store', () => {
  journalStoreContract({
    fresh: () => {
      const name = `q${++queue}`;
      return { open: () => open(name) };
    },
  });

  it("keeps recipe paths relative to the recipes directory, read back as this worker's own", async () => {
    const store = open('paths');
    await (await store.begin(start('p1'))).finish(end);
    expect(await redis.hget('recipe:journal:paths:run:p1', 'file')).toBe('notes.yaml');
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
        `const { connectRedisNow, openFleetJournal } = await import(${JSON.stringify(new URL('../../dist/fleet/redis.js', import.meta.url).pathname)});
         const redis = await connectRedisNow(${JSON.stringify(server.url)});
         const s = openFleetJournal(redis, { queue: 'died', recipesDir: '/r', leaseMs: 600 });
         await s.begin(${JSON.stringify(start('held'))});
         process.stdout.write('held\\n');
         setInterval(() => {}, 1000);`,
      ],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    await new Promise<void>((resolve) => child.stdout.on('data', () => resolve()));
    const store = open('died');
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
    expect(again.attempt).toBe(2);
    expect(again.resuming).toBe(true);
    expect((await store.getRun('held'))?.status).toBe('running');
    await again.finish(end);
    const attempts = await store.listAttempts('held');
    expect(attempts.map((a) => [a.attempt, a.kind, a.status])).toEqual([
      [1, 'run', 'interrupted'],
      [2, 'resume', 'succeeded'],
    ]);
    expect(await redis.exists('recipe:journal:died:lease:held')).toBe(0);
  });

  it('fences a worker that lost its lease: its appends fail (J009) instead of mixing with the new holder', async () => {
    const store = open('fence', 300);
    const first = await store.begin(start('f'));
    // The holder stalls (its lease is taken from under it, as after an expiry and another worker's resume).
    await redis.set('recipe:journal:fence:lease:f', 'someone-else');
    await expect(first.intend(entry('w#0', true))).rejects.toMatchObject({ code: 'J009' });
    expect(await store.listExchanges('f')).toEqual([]);
    await first.release();
  });

  it('says why it cannot reach Redis (F001)', async () => {
    await expect(connectRedisNow('redis://127.0.0.1:1')).rejects.toMatchObject({ code: 'F001' });
    await expect(connectRedisNow('http://127.0.0.1:1')).rejects.toMatchObject({ code: 'F006' });
  });
});
