import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConnectorClient } from '../../src/client/index.js';
import { connectRedisNow } from '../../src/fleet/redis.js';
import { FleetRateLimiter } from '../../src/fleet/rate-limit/index.js';
import { envelope, json, startFaultServer, type FaultServer } from '../client/fault-server.js';
import { startRedisServer, type RedisServer } from '../helpers/redis-server.js';

// --max-rps-per-connector: limiters on one real Redis, each with its own connection and client (as workers
// on other machines), share one limit per connector; the service counts what arrives in each second.
let redis: RedisServer;
let service: FaultServer;
const connections: Redis[] = [];

beforeAll(async () => {
  redis = await startRedisServer();
  service = await startFaultServer();
});
afterAll(async () => {
  for (const c of connections) await c.quit();
  await service?.close();
  await redis?.stop();
});

/** N clients, each with its own limiter and Redis connection, each sending `perClient` executes, 3 at a time. */
async function hammer(n: number, perClient: number, maxRps: number, connector: (i: number) => string) {
  const arrivals: { at: number; connector: string }[] = [];
  service.handle = (req, res) => {
    arrivals.push({ at: Date.now(), connector: req.path.split('/')[5] ?? '?' });
    json(res, 200, envelope({ ok: true }));
  };
  const clients: ConnectorClient[] = [];
  for (let i = 0; i < n; i++) {
    const connection = await connectRedisNow(redis.url);
    connections.push(connection);
    clients.push(
      new ConnectorClient({
        baseUrl: service.url,
        clientId: 'id-1',
        clientSecret: 'shh-secret-1',
        workspace: 'default',
        limiter: new FleetRateLimiter({ connection, maxRps, prefix: `t${maxRps}` }),
      }),
    );
  }
  await Promise.all(
    clients.map(async (client, i) => {
      let left = perClient;
      const lane = async (): Promise<void> => {
        while (left-- > 0) await client.execute(connector(i), { entity: 'notes', action: 'list' });
      };
      await Promise.all([lane(), lane(), lane()]);
    }),
  );
  for (const c of clients) await c.close();
  return arrivals;
}

/** Requests per one-second window, windows counted from the first arrival. */
function perSecond(arrivals: readonly { at: number }[]): number[] {
  const t0 = Math.min(...arrivals.map((a) => a.at));
  const counts: number[] = [];
  for (const a of arrivals) {
    const w = Math.floor((a.at - t0) / 1000);
    counts[w] = (counts[w] ?? 0) + 1;
  }
  return Array.from(counts, (c) => c ?? 0);
}

describe('fleet-wide rate limit', () => {
  it('four limiters on one Redis never let more than R requests a second through, together', async () => {
    const arrivals = await hammer(4, 8, 10, () => 'c-1');
    expect(arrivals).toHaveLength(32);
    const windows = perSecond(arrivals);
    // 32 requests at 10 a second need four windows; none holds more than 10.
    expect(windows.length).toBeGreaterThanOrEqual(4);
    for (const count of windows) expect(count).toBeLessThanOrEqual(10);
  });

  it('the limit is per connector: two connectors each get R a second', async () => {
    const arrivals = await hammer(4, 6, 8, (i) => (i % 2 === 0 ? 'c-a' : 'c-b'));
    expect(arrivals).toHaveLength(24);
    for (const id of ['c-a', 'c-b']) {
      const windows = perSecond(arrivals.filter((a) => a.connector === id));
      // 12 requests at 8 a second: two windows, neither above 8.
      expect(windows.length).toBeGreaterThanOrEqual(2);
      for (const count of windows) expect(count).toBeLessThanOrEqual(8);
    }
  });

  it('refuses a limit that is not a positive number (F054)', () => {
    expect(() => new FleetRateLimiter({ connection: connections[0] as Redis, maxRps: 0 })).toThrow(
      expect.objectContaining({ code: 'F054' }),
    );
  });
});
