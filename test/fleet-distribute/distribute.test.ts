import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { openFleet } from '../../src/fleet/queue.js';
import type { FleetWorker } from '../../src/fleet/worker.js';
import type { RunReport } from '../../src/run/index.js';
import { envelope, executes, json, startFaultServer, type FaultServer } from '../client/fault-server.js';
import { STORE_KINDS, startTestStore, type TestStore } from '../fleet/test-stores.js';
import { recipesDir, startWorkers, submitAndWait } from './fleet.js';

// Distributed foreach through the real parts: each fleet store (a redis-server, a PostgreSQL), fleet workers
// (BullMQ, the store's journal), a connector service on 127.0.0.1 that sees every request.
let service: FaultServer;
let workers: FleetWorker[] = [];
let queueNo = 0;

beforeAll(async () => {
  service = await startFaultServer();
});
afterAll(async () => {
  await service?.close();
});
afterEach(async () => {
  await Promise.all(workers.splice(0).map((w) => w.shutdown(2000)));
  service.seen.length = 0;
});

/** The service the items talk to: notes.create answers {n, doubled}, after `delayMs`; `fail` decides refusals. */
function serve(o: { delayMs?: number; fail?: (n: number, seenBefore: number) => number | undefined } = {}) {
  const inFlight = new Map<number, number>();
  const maxInFlight = new Map<number, number>();
  const sent = new Map<number, number>();
  service.handle = async (req, res) => {
    if (req.path === '/api/v1/openapi.json')
      return json(res, 200, {
        paths: {
          '/api/v1/integrations/connectors/{id}/execute': {
            post: { parameters: [{ in: 'header', name: 'Idempotency-Key' }] },
          },
        },
      });
    const n = Number((req.body as { params: { n: number } }).params.n);
    const before = sent.get(n) ?? 0;
    sent.set(n, before + 1);
    const chunk = Math.floor(n / 3);
    inFlight.set(chunk, (inFlight.get(chunk) ?? 0) + 1);
    maxInFlight.set(chunk, Math.max(maxInFlight.get(chunk) ?? 0, inFlight.get(chunk) ?? 0));
    await new Promise((r) => setTimeout(r, o.delayMs ?? 20));
    inFlight.set(chunk, (inFlight.get(chunk) ?? 1) - 1);
    const status = o.fail?.(n, before);
    if (status !== undefined) return json(res, status, { message: `no ${n}` });
    json(res, 200, envelope({ n, doubled: n * 2 }));
  };
  return { sent, maxInFlight };
}

const recipe = (extra = '', items = 10) => `version: 1
name: doubles
connector: { id: c-1 }
steps:
  - id: twice
    foreach: "\${ [0..${items - 1}] }"
    as: n
    concurrency: 2
    distribute: { chunk: 3 }
${extra}    steps:
      - id: made
        execute: { entity: notes, action: create, params: { n: "\${ $n }" } }
        retry: { max_attempts: 1 }
    collect: "\${ $made.doubled }"
outputs:
  doubled: "\${ $twice }"
`;

describe.each(STORE_KINDS)('distributed foreach on a fleet (%s)', (kind) => {
  let store: TestStore;
  beforeAll(async () => {
    store = await startTestStore(kind);
  }, 60_000);
  afterAll(async () => {
    await store?.stop();
  });

  async function run(dir: string, runId: string): Promise<{ report: RunReport | undefined; failedReason?: string }> {
    return submitAndWait({ store: store.store, queue: `q${queueNo}`, dir, recipe: 'doubles.yaml', runId });
  }

  async function fleet(dir: string, n: number, logs?: string[][]): Promise<void> {
    queueNo++;
    workers = await startWorkers({
      n,
      store: store.store,
      queue: `q${queueNo}`,
      recipesDir: dir,
      serviceUrl: service.url,
      ...(logs ? { logs } : {}),
    });
  }

  it('spreads chunks over the workers; results come back in item order; concurrency caps each chunk', async () => {
    const { sent, maxInFlight } = serve({ delayMs: 30 });
    const dir = recipesDir({ 'doubles.yaml': recipe() });
    const logs: string[][] = [];
    await fleet(dir, 3, logs);
    const { report } = await run(dir, 'spread-1');
    expect(report?.status).toBe('ok');
    expect(report?.outputs.doubled).toEqual([0, 2, 4, 6, 8, 10, 12, 14, 16, 18]);
    // Every item was sent once, and the run's report counts the chunks' requests.
    expect([...sent.values()]).toEqual(Array.from({ length: 10 }, () => 1));
    expect(report?.requests).toBeGreaterThanOrEqual(10);
    // The row of the step inside the loop counts what the chunks did, as a local run's would.
    expect(report?.steps.find((s) => s.id === 'made')).toMatchObject({ runs: 10, requests: 10, status: 'ok' });
    for (const max of maxInFlight.values()) expect(max).toBeLessThanOrEqual(2);
    // Four chunks (3 + 3 + 3 + 1) ran as jobs of their own, on more than one worker.
    const chunkLines = logs.map((lines) => lines.filter((l) => /job spread-1\.\w+\.\d+ completed/.test(l)).length);
    expect(chunkLines.reduce((a, b) => a + b, 0)).toBe(4);
    expect(chunkLines.filter((c) => c > 0).length).toBeGreaterThan(1);
  });

  it('a fleet of one worker with one slot runs the chunks too (the waiting run lends its slot)', async () => {
    serve({ delayMs: 1 });
    const dir = recipesDir({ 'doubles.yaml': recipe() });
    await fleet(dir, 1);
    const { report } = await run(dir, 'alone-1');
    expect(report?.outputs.doubled).toEqual([0, 2, 4, 6, 8, 10, 12, 14, 16, 18]);
  });

  it('on_error: continue keeps its per-item meaning: the failed item yields {error}, the others go on', async () => {
    const { sent } = serve({ delayMs: 1, fail: (n) => (n === 4 ? 422 : undefined) });
    const dir = recipesDir({ 'doubles.yaml': recipe('    on_error: continue\n') });
    await fleet(dir, 2);
    const { report } = await run(dir, 'continue-1');
    expect(report?.status).toBe('ok');
    const doubled = report?.outputs.doubled as unknown[];
    expect(doubled[3]).toBe(6);
    expect(doubled[4]).toMatchObject({ error: { code: 'C005', status: 422 } });
    expect(doubled[5]).toBe(10);
    expect(sent.get(4)).toBe(1);
  });

  it('a chunk that fails is retried by the queue: answered writes are not sent again, the failed one is', async () => {
    // Item 4 (chunk 1: items 3, 4, 5) fails once with a 503; the chunk's retry replays what was answered from
    // the journal and sends item 4 again (and a sibling cancelled in flight, in doubt), with the same keys.
    const { sent } = serve({ delayMs: 1, fail: (n, before) => (n === 4 && before === 0 ? 503 : undefined) });
    const dir = recipesDir({ 'doubles.yaml': recipe() });
    await fleet(dir, 2);
    const { report } = await run(dir, 'retry-1');
    expect(report?.status).toBe('ok');
    expect(report?.outputs.doubled).toEqual([0, 2, 4, 6, 8, 10, 12, 14, 16, 18]);
    expect(sent.get(4)).toBe(2);
    // The other chunks ran once; within the retried chunk nothing went out under a second key.
    for (const n of [0, 1, 2, 6, 7, 8, 9]) expect(sent.get(n)).toBe(1);
    for (let n = 0; n < 10; n++) {
      const keys = executes(service)
        .filter((s) => (s.body as { params: { n: number } }).params.n === n)
        .map((s) => s.headers['idempotency-key']);
      expect(new Set(keys).size).toBe(1);
    }
  });

  it('on_error: fail: a chunk failing for good fails the run with the item error, its code and location', async () => {
    serve({ delayMs: 1, fail: (n) => (n === 7 ? 422 : undefined) });
    const dir = recipesDir({ 'doubles.yaml': recipe() });
    await fleet(dir, 2);
    const { report, failedReason } = await run(dir, 'fail-1');
    expect(report).toBeUndefined();
    expect(failedReason).toContain('C005');
    const journal = await store.openJournal(`q${queueNo}`);
    const record = await journal.getRun('fail-1');
    expect(record?.status).toBe('failed');
    expect(record?.error).toMatchObject({ code: 'C005', line: 11, column: 9 });
  });

  it('a chunk job with malformed data fails for good with F052 (jobs come from the store: checked, not trusted)', async () => {
    const dir = recipesDir({ 'doubles.yaml': recipe() });
    await fleet(dir, 1);
    const fleetClient = await openFleet(store.store, `q${queueNo}`);
    const queue = fleetClient.queue;
    try {
      await queue.add('chunk', { run_id: 'x', start: 5, end: 2 }, { jobId: 'bad-chunk', attempts: 3 });
      let state = '';
      for (let i = 0; i < 200 && state !== 'failed'; i++) {
        await new Promise((r) => setTimeout(r, 25));
        state = (await (await queue.getJob('bad-chunk'))?.getState()) ?? '';
      }
      const job = await queue.getJob('bad-chunk');
      expect(state).toBe('failed');
      expect(job?.failedReason).toContain('"code":"F052"');
      expect(job?.attemptsMade).toBe(1);
    } finally {
      await fleetClient.close();
    }
  });
});
