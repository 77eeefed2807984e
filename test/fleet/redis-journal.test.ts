import { spawn } from 'node:child_process';
import type { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { connectRedisNow, openFleetJournal } from '../../src/fleet/redis.js';
import type { CallEntry, CallOutcome, JournalStore, RunStart, StepEvent } from '../../src/journal/index.js';
import { startRedisServer, type RedisServer } from '../helpers/redis-server.js';

// The SQLite store's cases (test/journal/store.test.ts), where they apply, against a real redis-server.
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

function start(id: string, at = 1_700_000_000_000, recipe = 'notes'): RunStart {
  return {
    run_id: id,
    recipe,
    file: `/r/${recipe}.yaml`,
    files: [{ path: `/r/${recipe}.yaml`, sha256: 'ab' }],
    inputs: { n: 3 },
    started_at: at,
    dry_run: false,
    options: {},
  };
}

function entry(key: string, write = false): CallEntry {
  return {
    call_key: key,
    step_path: key.split('#')[0] as string,
    file: '/r/notes.yaml',
    line: 3,
    column: 5,
    pointer: '/steps/0',
    kind: 'execute',
    method: 'POST',
    path: '/api/v1/integrations/connectors/1/execute',
    entity: 'notes',
    action: write ? 'create' : 'list',
    write,
    idempotency_key: write ? 'k' : null,
    request: '{"entity":"notes"}',
  };
}

function outcome(key: string, o: Partial<CallOutcome> = {}): CallOutcome {
  return {
    call_key: key,
    state: 'answered',
    status: 200,
    answer: '{"result":[]}',
    error: null,
    doubt: false,
    redacted: false,
    retries: 0,
    sent_at: 1_700_000_000_100,
    latency_ms: 3,
    settled_by: null,
    ...o,
  };
}

function step(status: string, duration: number | null): StepEvent {
  return {
    step_path: 'notes',
    file: '/r/notes.yaml',
    line: 4,
    column: 5,
    pointer: '/steps/1',
    step_id: 'notes',
    kind: 'foreach',
    depth: 0,
    status,
    started_at: 1,
    duration_ms: duration,
    error_code: null,
  };
}

const end = {
  status: 'ok' as const,
  ended_at: 1_700_000_001_000,
  duration_ms: 1000,
  outputs: { count: 3 },
  error: null,
  report: '{"status":"ok"}',
  failed_call: null,
  requests: 2,
  writes: 1,
  replayed_calls: 0,
};

describe('Redis journal store', () => {
  it('records a run, its exchanges in order, and its end; lists it with its counters', async () => {
    const store = open('one');
    const run = await store.begin(start('r1'));
    await run.record(entry('a#0'), outcome('a#0'));
    await run.intend(entry('b#0', true));
    // The intent is durable at once: another store (another worker) sees it before any flush of later appends.
    const other = open('one');
    const seen = await other.listExchanges('r1');
    expect(seen.map((e) => [e.call_key, e.state])).toEqual([
      ['a#0', 'answered'],
      ['b#0', 'intent'],
    ]);
    await run.finish(end);
    const summary = (await store.listRuns())[0];
    expect(summary).toMatchObject({ run_id: 'r1', status: 'succeeded', requests: 2, writes: 1, attempts: 1 });
    expect((await store.getRun('r1'))?.report).toBe('{"status":"ok"}');
    // Paths are kept relative to the recipes directory, read back as this worker's own.
    expect(await redis.hget('recipe:journal:one:run:r1', 'file')).toBe('notes.yaml');
    expect((await store.getRun('r1'))?.file).toBe('/r/notes.yaml');
  });

  it('lists runs newest first, filtered by status and recipe, with a limit', async () => {
    const store = open();
    for (const [id, at, recipe] of [
      ['old', 1, 'a'],
      ['mid', 2, 'b'],
      ['new', 3, 'a'],
    ] as const) {
      const r = await store.begin(start(id, at, recipe));
      await r.finish({ ...end, status: id === 'mid' ? 'failed' : 'ok' });
    }
    expect((await store.listRuns()).map((r) => r.run_id)).toEqual(['new', 'mid', 'old']);
    expect((await store.listRuns({ recipe: 'a' })).map((r) => r.run_id)).toEqual(['new', 'old']);
    expect((await store.listRuns({ status: 'failed' })).map((r) => r.run_id)).toEqual(['mid']);
    expect((await store.listRuns({ limit: 1 })).map((r) => r.run_id)).toEqual(['new']);
  });

  it('refuses a used run id (J006) and an unknown one on resume (J001)', async () => {
    const store = open();
    await (await store.begin(start('x'))).finish(end);
    await expect(store.begin(start('x'))).rejects.toMatchObject({ code: 'J006' });
    await expect(store.resume('nope', { kind: 'resume', started_at: 1, options: {} })).rejects.toMatchObject({
      code: 'J001',
    });
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

  it('finds writes in doubt: intents with no answer and failures that may hide an applied write', async () => {
    const store = open();
    const run = await store.begin(start('d'));
    const fail = async (key: string, doubt: boolean) =>
      run.record(
        entry(key, true),
        outcome(key, { state: 'failed', status: doubt ? 503 : 400, answer: null, error: '{"code":"C005"}', doubt }),
      );
    await run.intend(entry('w#0', true));
    await fail('x#0', true);
    await fail('y#0', false);
    await run.release();
    const again = await store.resume('d', { kind: 'resume', started_at: 2, options: {} });
    expect((await store.writesInDoubt('d')).map((e) => e.call_key)).toEqual(['w#0', 'x#0']);
    expect((await again.lookup('y#0'))?.state).toBe('failed');
    expect(await again.lookup('nothing#0')).toBeUndefined();
    // Answered at last: no longer in doubt.
    await again.record(entry('w#0', true), outcome('w#0'));
    await again.flush();
    expect((await store.writesInDoubt('d')).map((e) => e.call_key)).toEqual(['x#0']);
    await again.release();
  });

  it('prunes ended runs older than the cutoff, never a held one', async () => {
    const store = open();
    await (await store.begin(start('gone', 10))).finish({ ...end, ended_at: 20 });
    await (await store.begin(start('kept', 10))).finish({ ...end, ended_at: 5_000 });
    const held = await store.begin(start('live', 10));
    expect(await store.prune(1_000)).toBe(1);
    expect((await store.listRuns()).map((r) => r.run_id).sort()).toEqual(['kept', 'live']);
    await held.release();
  });

  it('records step events and effects, readable in append order; follows a run with after_seq', async () => {
    const store = open();
    const run = await store.begin(start('s'));
    run.step(step('running', null));
    run.effect('clock:started_at', 1);
    await run.flush();
    const first = await store.listSteps('s');
    expect(first.map((s) => s.status)).toEqual(['running']);
    run.step(step('ok', 7));
    await run.flush();
    const steps = await store.listSteps('s');
    expect(steps.map((s) => [s.step_path, s.status, s.duration_ms])).toEqual([['notes', 'ok', 7]]);
    expect(await store.getEffects('s')).toEqual({ 'clock:started_at': 1 });
    expect(await store.listSteps('s', { after_seq: steps[0]?.seq ?? 0 })).toEqual([]);
    await run.release();
  });

  it('says why it cannot reach Redis (F001)', async () => {
    await expect(connectRedisNow('redis://127.0.0.1:1')).rejects.toMatchObject({ code: 'F001' });
    await expect(connectRedisNow('http://127.0.0.1:1')).rejects.toMatchObject({ code: 'F006' });
  });
});
