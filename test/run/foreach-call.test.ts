import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { envelope, json, startFaultServer, type FaultServer } from '../client/fault-server.js';
import { abortableSleep, type ConnectorClient } from '../../src/client/index.js';
import { runYaml, tempDir, testClient } from './helpers.js';

let server: FaultServer;
let client: ConnectorClient;

beforeAll(async () => {
  server = await startFaultServer();
  client = testClient(server.url, { clientId: 'id-1', clientSecret: 'shh-secret-1' });
});
afterAll(async () => {
  await client.close();
  await server.close();
});

const body = (s: { body: unknown }) => s.body as { entity: string; action: string; params: Record<string, unknown> };

describe('foreach', () => {
  it('keeps input order with concurrency, binds as/index_as, collects per iteration', async () => {
    let inFlight = 0;
    let maxInFlight = 0;
    server.handle = async (req, res) => {
      inFlight++;
      maxInFlight = Math.max(maxInFlight, inFlight);
      const id = String(body(req).params.contactId);
      // later items answer sooner, so completion order differs from input order
      await new Promise((r) => setTimeout(r, 40 - Number(id) * 4));
      inFlight--;
      json(res, 200, envelope({ id, name: `n${id}` }));
    };
    const { report } = await runYaml(
      tempDir(),
      `version: 1
name: each
connector: { id: c-1 }
steps:
  - id: got
    foreach: "\${ ['1','2','3','4','5','6'] }"
    as: cid
    index_as: i
    concurrency: 3
    steps:
      - id: c
        execute: { entity: contacts, action: get, params: { contactId: "\${ $cid }" } }
    collect: "\${ $i & ':' & $c.name }"
outputs:
  got: "\${ $got }"
`,
      client,
    );
    expect(report.status).toBe('ok');
    expect(report.outputs.got).toEqual(['0:n1', '1:n2', '2:n3', '3:n4', '4:n5', '5:n6']);
    expect(maxInFlight).toBe(3);
    expect(report.steps[0]).toMatchObject({ id: 'got', requests: 6 });
    expect(report.steps[1]).toMatchObject({ id: 'c', runs: 6, depth: 1 });
  });

  it('32 items in flight print no listener-leak warning (each request listens for the cancel, then lets go)', async () => {
    server.handle = async (_req, res) => {
      await new Promise((r) => setTimeout(r, 20));
      json(res, 200, envelope({ id: 'x' }));
    };
    const warnings: string[] = [];
    const onWarning = (w: Error): void => void warnings.push(`${w.name}: ${w.message}`);
    process.on('warning', onWarning);
    try {
      const { report } = await runYaml(
        tempDir(),
        `version: 1
name: wide
connector: { id: c-1 }
steps:
  - id: got
    foreach: "\${ [1..64] }"
    concurrency: 32
    steps:
      - execute: { entity: contacts, action: get, params: { contactId: "\${ $string($item) }" } }
`,
        client,
      );
      expect(report.status).toBe('ok');
      // Warnings are emitted on the next tick.
      await new Promise((r) => setImmediate(r));
    } finally {
      process.off('warning', onWarning);
    }
    expect(warnings.filter((w) => w.startsWith('MaxListenersExceededWarning'))).toEqual([]);
  });
});

describe('download', () => {
  it('an empty body fails (C009) and writes nothing', async () => {
    server.handle = (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/octet-stream' });
      res.end();
    };
    const dir = tempDir();
    const { report } = await runYaml(
      dir,
      `version: 1\nname: dl\nconnector: { id: c-1 }\nsteps:\n  - download: { entity: files, params: { fileId: "8" }, to: "x.bin" }\n`,
      client,
    );
    expect(report.error?.code).toBe('C009');
    expect(existsSync(join(dir, 'x.bin'))).toBe(false);
  });
});

describe('context store', () => {
  it('wait_for_context_store polls inspect until the entity is ready_for_search', async () => {
    let polls = 0;
    server.seen.length = 0;
    server.handle = (req, res) => {
      if (req.path.endsWith('/inspect')) {
        polls++;
        const ready = polls >= 3;
        return json(res, 200, {
          context_store_status: ready ? 'Ready' : 'Loading',
          context_store_readiness: {
            configured_cache_entities: [
              { entity: 'deals', status: ready ? 'Ready' : 'Loading', ready_for_search: ready },
            ],
          },
        });
      }
      return json(res, 200, envelope({ data: [{ id: '1' }], meta: { has_more: false, cursor: null, took_ms: 1 } }));
    };
    const { report } = await runYaml(
      tempDir(),
      `version: 1\nname: wait\nconnector: { id: c-1 }\nsteps:\n  - id: r\n    execute: { entity: deals, action: context_store_search, params: { query: {} }, wait_for_context_store: true }\n    timeout_ms: 60000\noutputs:\n  n: "\${ $count($r.data) }"\n`,
      client,
      { sleep: abortableSleep },
    );
    expect(report.status).toBe('ok');
    expect(polls).toBe(3);
    expect(report.outputs.n).toBe(1);
  });

  it('gives up after timeout_ms with X006 naming the status', async () => {
    server.handle = (_req, res) =>
      json(res, 200, {
        context_store_readiness: {
          configured_cache_entities: [{ entity: 'deals', status: 'Building Preview', ready_for_search: false }],
        },
      });
    let t = 0;
    const { report } = await runYaml(
      tempDir(),
      `version: 1\nname: wait\nconnector: { id: c-1 }\nsteps:\n  - execute: { entity: deals, action: context_store_search, params: { query: {} }, wait_for_context_store: true }\n    timeout_ms: 2000\n`,
      client,
      { now: () => (t += 1000), sleep: abortableSleep },
    );
    expect(report.error?.code).toBe('X006');
    expect(report.error?.message).toContain('Building Preview');
  });
});
