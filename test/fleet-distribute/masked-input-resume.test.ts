import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FleetWorker } from '../../src/fleet/worker.js';
import { envelope, json, startFaultServer, type FaultServer } from '../client/fault-server.js';
import { STORE_KINDS, startTestStore, type TestStore } from '../fleet/test-stores.js';
import { recipesDir, startWorkers, submit, waitForJob } from './fleet.js';

// A fleet run whose input held a secret value: the journal keeps the input masked, so the worker that
// resumes the run (after another handed it back) takes the value from the job's submitted inputs, never ***.
let service: FaultServer;
const workers: FleetWorker[] = [];
const token = 'hook-7d1e5b3a';
const tag = `mask-${token}`;
/** The note bodies the service was sent, in order. */
const bodies: string[] = [];

const recipe = `version: 1
name: tagged-notes
inputs:
  tag: { type: string, required: true }
secrets: [HOOK_TOKEN]
connector: { id: c-1 }
steps:
  - id: notes
    foreach: "\${ [1..12] }"
    as: n
    steps:
      - id: note
        execute:
          entity: notes
          action: create
          params: { properties: { hs_note_body: "\${ $inputs.tag & '-' & $string($n) }" } }
    collect: "\${ $note.id }"
outputs:
  count: "\${ $count($notes) }"
`;

beforeAll(async () => {
  service = await startFaultServer(async (req, res) => {
    // It says it honours Idempotency-Key, so the write the hand-back cut off is sent again with its key.
    if (req.path === '/api/v1/openapi.json')
      return json(res, 200, {
        paths: {
          '/api/v1/integrations/connectors/{id}/execute': {
            post: { parameters: [{ in: 'header', name: 'Idempotency-Key' }] },
          },
        },
      });
    const body = req.body as { params: { properties: { hs_note_body: string } } };
    bodies.push(body.params.properties.hs_note_body);
    await new Promise((r) => setTimeout(r, 60));
    return json(res, 200, envelope({ id: `n${bodies.length}` }));
  });
});
afterAll(async () => {
  await Promise.all(workers.map((w) => w.shutdown(1000)));
  await service?.close();
});

describe.each(STORE_KINDS)('a fleet run with a masked input (%s)', (kind) => {
  let store: TestStore;
  beforeAll(async () => {
    store = await startTestStore(kind);
    bodies.length = 0;
  }, 60_000);
  afterAll(async () => {
    await Promise.all(workers.splice(0).map((w) => w.shutdown(1000)));
    await store?.stop();
  });

  it('is resumed by another worker with the submitted value, not ***', async () => {
    const dir = recipesDir({ 'tagged.yaml': recipe });
    const common = { store: store.store, queue: 'masked', recipesDir: dir, serviceUrl: service.url };
    const logs: string[][] = [];
    const env = { HOOK_TOKEN: token };
    const [first] = await startWorkers({ ...common, n: 1, env, logs });
    workers.push(first as FleetWorker);
    const job = { store: store.store, queue: 'masked', dir, recipe: 'tagged.yaml', runId: 'masked-fleet-1' };
    await submit({ ...job, inputs: { tag }, secrets: ['HOOK_TOKEN'] });
    const deadline = Date.now() + 30_000;
    while (bodies.length < 3 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    expect(bodies.length, 'the first worker started writing').toBeGreaterThanOrEqual(3);
    // The first worker stops and hands the run back; a second one resumes it from the journal.
    await (first as FleetWorker).shutdown(50);
    const [second] = await startWorkers({ ...common, n: 1, env, logs });
    workers.push(second as FleetWorker);
    const { report, failedReason } = await waitForJob(job);
    expect(failedReason, logs.flat().join('\n')).toBeUndefined();
    expect(report).toMatchObject({ status: 'ok', outputs: { count: 12 } });
    expect(logs[1]?.join('\n')).toContain('run masked-fleet-1 resumed');
    expect(bodies.every((b) => b.startsWith(`${tag}-`))).toBe(true);
    const numbers = new Set(bodies.map((b) => Number(b.slice(tag.length + 1))));
    expect([...numbers].sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]);
  }, 90_000);
});
