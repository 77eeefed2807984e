import { spawn, type ChildProcess } from 'node:child_process';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { envelope, executes, json, startFaultServer, type FaultServer } from '../client/fault-server.js';
import { RECIPE_BIN, runCli } from '../cli/cli-process.js';
import { startTestStore, STORE_KINDS, type TestStore } from '../fleet/test-stores.js';
import { recipesDir } from './fleet.js';

// The real CLI: `recipe worker` processes on one redis-server or PostgreSQL, `recipe submit --wait`, a service
// that counts every request by item and Idempotency-Key (the service honours keys: a repeat is answered, not
// applied).
describe.each(STORE_KINDS)('on %s', (kind) => {
  let store: TestStore;
  let service: FaultServer;
  const workers: { child: ChildProcess; log: () => string }[] = [];
  let queueNo = 0;

  // Starting PostgreSQL (initdb, then the server) takes tens of seconds on a busy machine.
  beforeAll(async () => {
    store = await startTestStore(kind);
    service = await startFaultServer();
  }, 120_000);
  afterAll(async () => {
    await service?.close();
    await store?.stop();
  }, 60_000);
  afterEach(async () => {
    await Promise.all(workers.splice(0).map((w) => stop(w.child)));
    service.seen.length = 0;
  });

  const env = () => ({
    CONNECTOR_API_URL: service.url,
    CONNECTOR_CLIENT_ID: 'id-1',
    CONNECTOR_CLIENT_SECRET: 'shh-secret-1',
    NO_COLOR: '1',
  });

  /** Starts `recipe worker` and waits until it takes jobs. */
  async function startWorker(dir: string, queue: string, extra: string[] = []): Promise<ChildProcess> {
    const child = spawn(
      process.execPath,
      [RECIPE_BIN, 'worker', ...store.flag, '--queue', queue, '--recipes', dir, '--no-env-file', ...extra],
      { cwd: dir, env: { ...process.env, ...env() }, stdio: ['ignore', 'ignore', 'pipe'] },
    );
    let log = '';
    child.stderr?.on('data', (d: Buffer) => (log += d.toString()));
    workers.push({ child, log: () => log });
    const deadline = Date.now() + 20_000;
    while (!/taking jobs from queue/.test(log)) {
      if (child.exitCode !== null || Date.now() > deadline) throw new Error(`worker did not start:\n${log}`);
      await new Promise((r) => setTimeout(r, 50));
    }
    return child;
  }

  async function stop(child: ChildProcess): Promise<void> {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((r) => child.once('exit', r));
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
    await exited;
    clearTimeout(timer);
  }

  /** Answers notes.create with {n, doubled} after `delayMs`; a repeated Idempotency-Key is answered, not applied. */
  function serve(delayMs: number) {
    const applied = new Map<string, number>();
    const arrivals: number[] = [];
    service.handle = async (req, res) => {
      // Says so in its OpenAPI document, as `recipe serve` does: a resume settles writes in doubt by their key.
      if (req.path === '/api/v1/openapi.json')
        return json(res, 200, {
          paths: {
            '/api/v1/integrations/connectors/{id}/execute': {
              post: { parameters: [{ in: 'header', name: 'Idempotency-Key' }] },
            },
          },
        });
      arrivals.push(Date.now());
      const n = Number((req.body as { params: { n: number } }).params.n);
      const key = String(req.headers['idempotency-key'] ?? `none-${arrivals.length}`);
      await new Promise((r) => setTimeout(r, delayMs));
      const replayed = applied.has(key);
      if (!replayed) applied.set(key, n);
      json(res, 200, envelope({ n, doubled: n * 2 }), replayed ? { 'idempotent-replayed': 'true' } : {});
    };
    return { applied, arrivals };
  }

  const recipe = (items: number, chunk: number, concurrency: number) => `version: 1
name: doubles
connector: { id: c-1 }
steps:
  - id: twice
    foreach: "\${ [0..${items - 1}] }"
    as: n
    concurrency: ${concurrency}
    distribute: { chunk: ${chunk} }
    steps:
      - id: made
        execute: { entity: notes, action: create, params: { n: "\${ $n }" } }
    collect: "\${ $made.doubled }"
outputs:
  doubled: "\${ $twice }"
`;

  function submit(dir: string, queue: string, runId: string) {
    return runCli(['submit', 'doubles.yaml', ...store.flag, '--queue', queue, '--run-id', runId, '--wait', '--json'], {
      cwd: dir,
      env: env(),
      timeoutMs: 90_000,
    });
  }

  describe('distributed foreach with recipe worker processes', () => {
    it('a worker killed with SIGKILL mid-run: the run finishes on the others, every item applied once', async () => {
      const { applied } = serve(150);
      const dir = recipesDir({ 'doubles.yaml': recipe(30, 5, 2) });
      const queue = `e2e${++queueNo}`;
      for (let i = 0; i < 3; i++) await startWorker(dir, queue, ['--lock-ms', '1500']);
      const done = submit(dir, queue, 'killed-1');
      // Once the items are under way, kill the worker that holds the run (its lent slot runs a chunk too).
      const deadline = Date.now() + 30_000;
      let holder: { child: ChildProcess; log: () => string } | undefined;
      while (!holder || executes(service).length < 6) {
        if (Date.now() > deadline) throw new Error('the run did not start');
        holder = workers.find((w) => /run killed-1 started/.test(w.log()));
        await new Promise((r) => setTimeout(r, 20));
      }
      holder.child.kill('SIGKILL');
      // Killed mid-run: most items were still to be sent.
      expect(executes(service).length).toBeLessThan(30);
      const res = await done;
      expect(res.code, `${res.stdout.slice(0, 3000)}\n${workers.map((w) => w.log()).join('\n---\n')}`).toBe(0);
      const report = JSON.parse(res.stdout) as { status: string; outputs: { doubled: number[] } };
      expect(report.status).toBe('ok');
      expect(report.outputs.doubled).toEqual(Array.from({ length: 30 }, (_, n) => n * 2));
      // Each item's write was applied exactly once (a repeat after the kill came with the same key).
      const byItem = new Map<number, number>();
      for (const n of applied.values()) byItem.set(n, (byItem.get(n) ?? 0) + 1);
      expect([...byItem.keys()].sort((a, b) => a - b)).toEqual(Array.from({ length: 30 }, (_, n) => n));
      expect([...byItem.values()].every((c) => c === 1)).toBe(true);
      // Another worker resumed the run.
      expect(workers.some((w) => w !== holder && /run killed-1 resumed/.test(w.log()))).toBe(true);
    });

    it('--max-rps-per-connector: two workers together stay within R requests a second', async () => {
      const { arrivals } = serve(1);
      const dir = recipesDir({ 'doubles.yaml': recipe(24, 4, 4) });
      const queue = `e2e${++queueNo}`;
      for (let i = 0; i < 2; i++) await startWorker(dir, queue, ['--max-rps-per-connector', '8']);
      const res = await submit(dir, queue, 'limited-1');
      expect(res.code, res.stderr).toBe(0);
      expect(arrivals).toHaveLength(24);
      // One count of a distributed run's requests and writes: its chunks' counters are folded into the attempt
      // that gathered them (foldParts), so `runs`, `runs show` and the report agree, on either store.
      const report = JSON.parse(res.stdout) as { requests: number };
      expect(report.requests).toBeGreaterThanOrEqual(24);
      const read = async <T>(args: string[]): Promise<T> => {
        const r = await runCli([...args, ...store.flag, '--queue', queue, '--json'], { cwd: dir, env: env() });
        expect(r.code, r.stderr).toBe(0);
        return JSON.parse(r.stdout) as T;
      };
      const rows = await read<{ run_id: string; requests: number; writes: number }[]>(['runs']);
      expect(rows.find((r) => r.run_id === 'limited-1')).toMatchObject({ requests: report.requests, writes: 24 });
      const shown = await read<{ requests: number }>(['runs', 'show', 'limited-1']);
      expect(shown.requests).toBe(report.requests);
      const t0 = Math.min(...arrivals);
      const windows: number[] = [];
      for (const at of arrivals) {
        const w = Math.floor((at - t0) / 1000);
        windows[w] = (windows[w] ?? 0) + 1;
      }
      // 24 requests at 8 a second: at least three one-second windows, none above 8.
      expect(windows.length).toBeGreaterThanOrEqual(3);
      for (const count of Array.from(windows, (c) => c ?? 0)) expect(count).toBeLessThanOrEqual(8);
      // Two workers and three CLI processes on PostgreSQL: over 30 s on a loaded machine (a wait, not a figure).
    }, 90_000);
  });
});
