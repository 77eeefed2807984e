import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunsPage } from '../../src/console/run-api-types.js';
import { connectRedisNow, openFleetJournal } from '../../src/fleet/redis.js';
import { startRedisServer, type RedisServer } from '../helpers/redis-server.js';
import { end, start } from '../journal/store-contract.js';
import { startConsoleProcess, type ConsoleProcess } from './console-process.js';

/**
 * `recipe console --redis URL`: the runs pages read a fleet's journal on a real redis-server (written here
 * through the fleet's own journal store, as workers write it), paged with the same keyset cursor.
 */
let server: RedisServer;
let consoleProcess: ConsoleProcess;
const dir = mkdtempSync(join(tmpdir(), 'recipe-console-fleet-'));

beforeAll(async () => {
  server = await startRedisServer();
  const redis = await connectRedisNow(server.url);
  const journal = openFleetJournal(redis, { queue: 'ops', recipesDir: dir, ownsConnection: true });
  // 60 runs a second apart, every third failed: more than one page of 50.
  // The newest runs were started by a webhook trigger, a schedule and `recipe submit` (as workers journal them).
  const origins: Record<number, Record<string, unknown>> = {
    59: { kind: 'trigger', trigger: 'order-paid', delivery_id: 'evt_1' },
    58: { kind: 'schedule', schedule: 'nightly' },
    57: { kind: 'submit', callback: { url: 'http://127.0.0.1:9/done', delivery_id: 'run-fleet-57' } },
  };
  for (let i = 0; i < 60; i++) {
    const made = start(`fleet-${String(i).padStart(2, '0')}`, 1_700_000_000_000 + i * 1000);
    const origin = origins[i];
    const run = await journal.begin(origin ? { ...made, options: { origin } } : made);
    await run.finish({ ...end, status: i % 3 === 0 ? 'failed' : 'ok' });
  }
  await journal.close();
  consoleProcess = await startConsoleProcess(['--port', '0', '--redis', server.url, '--queue', 'ops'], { cwd: dir });
}, 60_000);
afterAll(async () => {
  await consoleProcess?.stop();
  await server?.stop();
  rmSync(dir, { recursive: true, force: true });
});

async function page(query: string): Promise<RunsPage> {
  const res = await fetch(`${consoleProcess.url}/api/runs${query}`);
  expect(res.status).toBe(200);
  return (await res.json()) as RunsPage;
}

describe('recipe console --redis', () => {
  it("lists the fleet's runs newest first and pages them with the cursor it hands out", async () => {
    const first = await page('?limit=50');
    expect(first.source).toContain(`${server.url.replace(/\/$/, '')}`);
    expect(first.runs).toHaveLength(50);
    expect(first.runs[0]?.run_id).toBe('fleet-59');
    expect(first.next).not.toBeNull();
    const second = await page(`?limit=50&before=${encodeURIComponent(first.next ?? '')}`);
    expect(second.runs.map((r) => r.run_id)).toEqual(
      Array.from({ length: 10 }, (_, i) => `fleet-${String(9 - i).padStart(2, '0')}`),
    );
    expect(second.next).toBeNull();
  });

  it('shows who started each run: in the list and on the run page', async () => {
    const first = await page('?limit=4');
    expect(first.runs.map((r) => r.origin)).toEqual([
      'trigger order-paid (delivery evt_1)',
      'schedule nightly',
      'recipe submit, result to http://127.0.0.1:9/done',
      null,
    ]);
    const res = await fetch(`${consoleProcess.url}/api/runs/fleet-59`);
    const view = (await res.json()) as { run: { origin: string | null; options: Record<string, unknown> } };
    expect(view.run.origin).toBe('trigger order-paid (delivery evt_1)');
    expect(view.run.options.origin).toEqual({ kind: 'trigger', trigger: 'order-paid', delivery_id: 'evt_1' });
  });

  it('filters by status', async () => {
    const failed = await page('?status=failed&limit=50');
    expect(failed.runs).toHaveLength(20);
    expect(failed.runs.every((r) => r.status === 'failed')).toBe(true);
  });
});
