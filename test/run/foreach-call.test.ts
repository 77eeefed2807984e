import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { envelope, executes, json, startFaultServer, type FaultServer } from '../client/fault-server.js';
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

  it('on_error continue: failed iterations yield {error} and the rest go on', async () => {
    server.handle = (req, res) =>
      body(req).params.contactId === '2'
        ? json(res, 404, { message: 'no such contact' })
        : json(res, 200, envelope({ id: body(req).params.contactId }));
    const { report } = await runYaml(
      tempDir(),
      `version: 1
name: each-continue
connector: { id: c-1 }
steps:
  - id: got
    foreach: "\${ ['1','2','3'] }"
    on_error: continue
    steps:
      - id: c
        execute: { entity: contacts, action: get, params: { contactId: "\${ $item }" } }
    collect: "\${ $c.id }"
outputs:
  got: "\${ $got }"
`,
      client,
    );
    expect(report.status).toBe('ok');
    const got = report.outputs.got as unknown[];
    expect(got[0]).toBe('1');
    expect(got[1]).toMatchObject({ error: { code: 'C005', status: 404 } });
    expect(got[2]).toBe('3');
  });

  it('on_error fail: the first failure cancels the rest and fails the step', async () => {
    server.seen.length = 0;
    server.handle = (req, res) =>
      body(req).params.contactId === '1' ? json(res, 500, { message: 'boom' }) : json(res, 200, envelope({ id: 'x' }));
    const { report } = await runYaml(
      tempDir(),
      `version: 1
name: each-fail
connector: { id: c-1 }
steps:
  - foreach: "\${ [1..50].$string() }"
    steps:
      - execute: { entity: contacts, action: get, params: { contactId: "\${ $item }" } }
`,
      client,
    );
    expect(report.status).toBe('failed');
    expect(report.error).toMatchObject({ code: 'C005', status: 500, line: 7 });
    expect(executes(server).length).toBeLessThan(50);
  });

  it('a one-item JSONata sequence and an empty one are both iterable', async () => {
    const { report } = await runYaml(
      tempDir(),
      `version: 1
name: seq
steps:
  - id: one
    foreach: "\${ [{'a': 1}, {'a': 2}][a = 1] }"
    steps: [ { transform: "\${ $item.a }" } ]
  - id: none
    foreach: "\${ [1,2][$ > 5] }"
    steps: [ { transform: "\${ $item }" } ]
outputs:
  one: "\${ $one }"
  none: "\${ $count($none) }"
`,
      client,
    );
    expect(report.outputs).toEqual({ one: [1], none: 0 });
  });
});

describe('call', () => {
  it('runs another recipe with its own inputs and scope; its outputs are the step output', async () => {
    const { report } = await runYaml(
      tempDir(),
      `version: 1
name: caller
steps:
  - id: per_stage
    call: ./lib/count.yaml
    with: { items: "\${ [{'s': 'a'}, {'s': 'b'}, {'s': 'a'}] }" }
outputs:
  counts: "\${ $per_stage.counts }"
`,
      client,
      {
        files: {
          'lib/count.yaml': `version: 1
name: count
inputs:
  items: { type: array, required: true }
steps:
  - id: counts
    transform: "\${ $inputs.items{ s: $count($) } }"
outputs:
  counts: "\${ $counts }"
`,
        },
      },
    );
    expect(report.status).toBe('ok');
    expect(report.outputs.counts).toEqual({ a: 2, b: 1 });
    expect(report.steps.map((s) => [s.id, s.depth])).toEqual([
      ['per_stage', 0],
      ['counts', 1],
    ]);
  });

  it('a wrong input type for the called recipe fails with X012', async () => {
    const { report } = await runYaml(
      tempDir(),
      `version: 1
name: caller
steps:
  - call: ./lib/count.yaml
    with: { items: "\${ 5 }" }
`,
      client,
      {
        files: {
          'lib/count.yaml': `version: 1\nname: count\ninputs:\n  items: { type: array, required: true }\nsteps:\n  - log: "x"\n`,
        },
      },
    );
    expect(report.error?.code).toBe('X012');
    expect(report.error?.line).toBe(4);
  });
});

describe('dry run', () => {
  it('reads are sent, writes are recorded with the exact request and get placeholders', async () => {
    server.seen.length = 0;
    server.handle = (_req, res) => json(res, 200, envelope([{ id: '11' }, { id: '12' }]));
    const { report } = await runYaml(
      tempDir(),
      `version: 1
name: dry
connector: { id: c-1 }
steps:
  - id: deals
    execute: { entity: deals, action: list }
  - id: tasks
    foreach: "\${ $deals }"
    as: d
    steps:
      - id: t
        execute: { entity: tasks, action: create, params: { properties: { hs_task_subject: "Follow up \${ $d.id }" } } }
    collect: "\${ $t.id }"
outputs:
  tasks: "\${ $tasks }"
`,
      client,
      { dryRun: true },
    );
    expect(report.status).toBe('ok');
    expect(executes(server).map((s) => body(s).action)).toEqual(['list']);
    expect(report.outputs.tasks).toEqual(['dry-run-1', 'dry-run-2']);
    expect(report.dry_run_writes).toEqual([
      {
        step: 't',
        line: 11,
        column: 9,
        file: expect.stringMatching(/main\.yaml$/),
        loop_index: [0],
        method: 'POST',
        path: '/api/v1/integrations/connectors/c-1/execute',
        body: { entity: 'tasks', action: 'create', params: { properties: { hs_task_subject: 'Follow up 11' } } },
      },
      {
        step: 't',
        line: 11,
        column: 9,
        file: expect.stringMatching(/main\.yaml$/),
        loop_index: [1],
        method: 'POST',
        path: '/api/v1/integrations/connectors/c-1/execute',
        body: { entity: 'tasks', action: 'create', params: { properties: { hs_task_subject: 'Follow up 12' } } },
      },
    ]);
  });
});

describe('download', () => {
  it('writes the bytes to the `to` path and outputs metadata', async () => {
    server.handle = (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain', 'content-disposition': 'attachment; filename="notes.txt"' });
      res.end('hello');
    };
    const dir = tempDir();
    const { report } = await runYaml(
      dir,
      `version: 1
name: dl
connector: { id: c-1 }
steps:
  - id: f
    download: { entity: files, params: { fileId: "7" }, to: "out/\${ 7 }.txt" }
outputs:
  f: "\${ $f }"
`,
      client,
    );
    expect(report.status).toBe('ok');
    expect(report.outputs.f).toEqual({
      path: join(dir, 'out/7.txt'),
      bytes: 5,
      content_type: 'text/plain',
      filename: 'notes.txt',
    });
    expect(readFileSync(join(dir, 'out/7.txt'), 'utf8')).toBe('hello');
  });

  it('under --dry-run fetches the bytes but writes no file', async () => {
    server.handle = (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end('hello');
    };
    const dir = tempDir();
    const { report } = await runYaml(
      dir,
      `version: 1\nname: dl\nconnector: { id: c-1 }\nsteps:\n  - id: f\n    download: { entity: files, params: { fileId: "7" }, to: "y.txt" }\noutputs:\n  f: "\${ $f }"\n`,
      client,
      { dryRun: true },
    );
    expect(report.outputs.f).toMatchObject({ bytes: 5, dry_run: true });
    expect(existsSync(join(dir, 'y.txt'))).toBe(false);
  });

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
