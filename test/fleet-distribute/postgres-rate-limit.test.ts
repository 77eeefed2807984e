import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PostgresRateLimiter } from '../../src/fleet/rate-limit/index.js';
import { openSqlPool, type SqlPool } from '../../src/journal/postgres/client.js';
import { startPostgresServer, type PostgresServer } from '../helpers/postgres-server.js';
import { extractBlocks } from '../docs/doc-examples.js';

// --max-rps-per-connector on PostgreSQL: two limiters, each on its own pool (as two workers), share one limit
// per connector. What is checked is what the database granted, by its own clock (the grants it records):
// every slot of a connector at least 1.1/R s after the one before, no one-second window with more than R.
let server: PostgresServer;
let admin: pg.Client;
const pools: SqlPool[] = [];

beforeAll(async () => {
  server = await startPostgresServer();
  admin = new pg.Client({ connectionString: server.url });
  await admin.connect();
});
afterAll(async () => {
  for (const p of pools) await p.end();
  await admin?.end();
  await server?.stop();
});

/** Two workers' limiters (their own pools), created at the same time (their tables made once). */
async function twoWorkers(maxRps: number, prefix: string): Promise<PostgresRateLimiter[]> {
  return Promise.all(
    [0, 1].map(async () => {
      const pool = await openSqlPool(server.url, { max: 3 });
      pools.push(pool);
      return PostgresRateLimiter.create({ pool, maxRps, prefix });
    }),
  );
}

/** Each limiter asks `perWorker` times for `connector(worker)`, three requests at a time. */
async function hammer(limiters: readonly PostgresRateLimiter[], perWorker: number, connector: (w: number) => string) {
  await Promise.all(
    limiters.map(async (limiter, w) => {
      let left = perWorker;
      const lane = async (): Promise<void> => {
        while (left-- > 0) await limiter.acquire(connector(w));
      };
      await Promise.all([lane(), lane(), lane()]);
    }),
  );
}

/** The grants the database recorded under `key`: ms after the first, in order, and per one-second window. */
async function grants(key: string): Promise<{ gaps: number[]; windows: number[]; count: number }> {
  const { rows } = await admin.query<{ ms: number }>(
    `SELECT extract(epoch FROM at - min(at) OVER ()) * 1000 AS ms FROM recipe_rate.grants WHERE key = $1 ORDER BY at`,
    [key],
  );
  const ms = rows.map((r) => Number(r.ms));
  const windows: number[] = [];
  for (const t of ms) windows[Math.floor(t / 1000)] = (windows[Math.floor(t / 1000)] ?? 0) + 1;
  return {
    gaps: ms.slice(1).map((t, i) => t - (ms[i] as number)),
    windows: Array.from(windows, (c) => c ?? 0),
    count: ms.length,
  };
}

describe('fleet-wide rate limit on PostgreSQL', () => {
  it('two workers on one database never get more than R slots a second for a connector, together', async () => {
    const limiters = await twoWorkers(10, 'shared');
    await hammer(limiters, 12, () => 'c-1');
    const g = await grants('shared:c-1');
    expect(g.count).toBe(24);
    // 10 a second, spaced 1.1/10 s: 24 slots span three windows at least, none holding more than 10.
    for (const gap of g.gaps) expect(gap).toBeGreaterThanOrEqual(110);
    expect(g.windows.length).toBeGreaterThanOrEqual(3);
    for (const count of g.windows) expect(count).toBeLessThanOrEqual(10);
  });

  it('the limit is per connector: two connectors each have their own schedule', async () => {
    const limiters = await twoWorkers(10, 'per');
    await hammer(limiters, 6, (w) => `c-${w}`);
    const [a, b] = await Promise.all([grants('per:c-0'), grants('per:c-1')]);
    expect([a.count, b.count]).toEqual([6, 6]);
    for (const gap of [...a.gaps, ...b.gaps]) expect(gap).toBeGreaterThanOrEqual(110);
    // Side by side, not one after the other: both connectors' slots fall in the same first second.
    const { rows } = await admin.query<{ key: string }>(
      `SELECT key FROM recipe_rate.grants WHERE key LIKE 'per:%' ORDER BY at LIMIT 4`,
    );
    expect(new Set(rows.map((r) => r.key))).toEqual(new Set(['per:c-0', 'per:c-1']));
    // The query docs/fleet.md gives operators counts the same grants per connector and second.
    const [doc] = extractBlocks('docs/fleet.md').filter((b) => b.lang === 'sql' && b.text.includes('recipe_rate.'));
    const perSecond = (await admin.query<{ key: string; count: string }>(doc?.text ?? '')).rows;
    const total = (key: string): number =>
      perSecond.filter((r) => r.key === key).reduce((n, r) => n + Number(r.count), 0);
    expect([total('per:c-0'), total('per:c-1')]).toEqual([6, 6]);
  });

  it('refuses a rate that is not a number above 0 (F054)', async () => {
    const pool = await openSqlPool(server.url, { max: 1 });
    pools.push(pool);
    await expect(PostgresRateLimiter.create({ pool, maxRps: 0 })).rejects.toMatchObject({ code: 'F054' });
  });
});
