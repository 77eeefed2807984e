import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../cli/cli-process.js';
import { startRedisServer, type RedisServer } from '../helpers/redis-server.js';

/** A worker refuses a Redis that may evict the fleet's keys (F020, exit 3), before taking any job. */
let dir: string;
let redis: RedisServer;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'recipe-redis-settings-'));
  mkdirSync(join(dir, 'recipes'));
  // The later flag wins over the helper's noeviction.
  redis = await startRedisServer(['--maxmemory-policy', 'allkeys-lru']);
}, 30_000);

afterAll(async () => {
  await redis?.stop();
});

describe('recipe worker and maxmemory-policy', () => {
  it('refuses to start on a Redis whose maxmemory-policy is not noeviction', async () => {
    const r = await runCli(['worker', '--redis', redis.url, '--recipes', join(dir, 'recipes')], {
      cwd: dir,
      env: { CONNECTOR_API_URL: 'http://127.0.0.1:1', CONNECTOR_CLIENT_ID: 'x', CONNECTOR_CLIENT_SECRET: 'y' },
      timeoutMs: 30_000,
    });
    expect(r.code).toBe(3);
    expect(r.stderr).toContain('F020 Redis maxmemory-policy is allkeys-lru');
  }, 60_000);
});
