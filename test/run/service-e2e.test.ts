import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { abortableSleep, ConnectorClient } from '../../src/client/index.js';
import { startService, type RunningService } from '../../src/service/start.js';
import { runYaml, tempDir } from './helpers.js';

/** The interpreter against the real embedded service: each paging style of its connectors, and context store readiness. */
let service: RunningService;
let client: ConnectorClient;

beforeAll(async () => {
  service = await startService({ seed: 'demo', logLevel: 'silent' });
  client = new ConnectorClient({ baseUrl: service.url, ...service.credentials, workspace: 'default' });
});
afterAll(async () => {
  await client.close();
  await service.close();
});

describe('paging styles of the real connectors', () => {
  it('CRM list (after/next_cursor), Files list (offset/limit) and context_store_search (meta.cursor) page to the same records as one big page', async () => {
    const { report } = await runYaml(
      tempDir(),
      `version: 1
name: styles
connector: { definition: CRM }
steps:
  - id: small
    paginate: { entity: contacts, action: list, params: { limit: 30 } }
  - id: big
    paginate: { entity: contacts, action: list, params: { limit: 100 } }
  - id: files_small
    paginate: { entity: files, action: list, params: { limit: 2 } }
    connector: { definition: Files }
  - id: files_big
    paginate: { entity: files, action: list, params: { limit: 200 } }
    connector: { definition: Files }
  - id: search_small
    paginate: { entity: deals, action: context_store_search, params: { query: { sort: [{ id: asc }] }, limit: 10 }, wait_for_context_store: true }
    timeout_ms: 60000
  - id: search_big
    execute: { entity: deals, action: context_store_search, params: { query: { sort: [{ id: asc }] } } }
outputs:
  contacts: "\${ [$count($small), $count($big), $count($distinct($small.id))] }"
  same_contacts: "\${ $string($small.id) = $string($big.id) }"
  files: "\${ [$count($files_small), $count($files_big)] }"
  same_files: "\${ $string($files_small.id) = $string($files_big.id) }"
  deals: "\${ [$count($search_small), $count($search_big.data)] }"
  same_deals: "\${ $string($search_small.id) = $string($search_big.data.id) }"
`,
      client,
      { sleep: abortableSleep },
    );
    expect(report.error).toBeUndefined();
    const contacts = report.outputs.contacts as number[];
    expect(contacts[0]).toBeGreaterThan(100);
    expect(contacts).toEqual([contacts[0], contacts[0], contacts[0]]);
    expect(report.outputs.same_contacts).toBe(true);
    const files = report.outputs.files as number[];
    expect(files[0]).toBeGreaterThan(2);
    expect(files[0]).toBe(files[1]);
    expect(report.outputs.same_files).toBe(true);
    const deals = report.outputs.deals as number[];
    expect(deals[0]).toBeGreaterThan(10);
    expect(deals[0]).toBe(deals[1]);
    expect(report.outputs.same_deals).toBe(true);
    const small = report.steps.find((s) => s.id === 'small')!;
    // one request per page, plus one inspect per run to read the action's params (paging key detection)
    expect(small.requests).toBe(Math.ceil(contacts[0]! / 30) + 1);
  });
});

describe('download from the Files connector', () => {
  it('writes the bytes of a demo file with its content type and filename', async () => {
    const dir = tempDir();
    const { report } = await runYaml(
      dir,
      `version: 1
name: dl
connector: { definition: Files }
steps:
  - id: files
    paginate: { entity: files, action: list, params: { limit: 200 } }
  - id: logo
    transform: "\${ $files[name = 'logo.png'][0] }"
  - id: got
    download: { entity: files, params: { fileId: "\${ $logo.id }" }, to: "out/\${ $logo.name }" }
outputs:
  got: "\${ $got }"
  size: "\${ $logo.size }"
`,
      client,
    );
    expect(report.error).toBeUndefined();
    const got = report.outputs.got as { path: string; bytes: number; content_type: string; filename: string };
    expect(got).toMatchObject({ path: join(dir, 'out/logo.png'), content_type: 'image/png', filename: 'logo.png' });
    const bytes = readFileSync(got.path);
    expect(bytes.length).toBe(got.bytes);
    expect(bytes.subarray(1, 4).toString('latin1')).toBe('PNG');
    expect(bytes.length).toBe(report.outputs.size);
  });
});

describe('context store readiness', () => {
  it('context_store_not_ready says so and suggests paging with list', async () => {
    const held = await startService({ seed: 'demo', logLevel: 'silent', contextStore: { hold: 'Loading' } });
    const c = new ConnectorClient({ baseUrl: held.url, ...held.credentials, workspace: 'default' });
    try {
      const { report } = await runYaml(
        tempDir(),
        `version: 1\nname: notready\nconnector: { definition: CRM }\nsteps:\n  - execute: { entity: deals, action: context_store_search, params: { query: {} } }\n`,
        c,
      );
      expect(report.error).toMatchObject({ code: 'C008', status: 409, line: 5 });
      expect(report.error?.message).toContain('not ready');
      expect(report.error?.message).toContain('paginate over deals.list');
    } finally {
      await c.close();
      await held.close();
    }
  });

  it('wait_for_context_store waits until the entity is searchable on a connector still indexing', async () => {
    const slow = await startService({
      seed: 'demo',
      logLevel: 'silent',
      contextStore: { batchSize: 50, batchDelayMs: 30 },
    });
    const c = new ConnectorClient({ baseUrl: slow.url, ...slow.credentials, workspace: 'default' });
    try {
      const { report } = await runYaml(
        tempDir(),
        `version: 1\nname: wait\nconnector: { definition: CRM }\nsteps:\n  - id: r\n    execute: { entity: tickets, action: context_store_search, params: { query: {}, limit: 5 }, wait_for_context_store: true }\n    timeout_ms: 60000\noutputs:\n  n: "\${ $count($r.data) }"\n`,
        c,
        { sleep: abortableSleep },
      );
      expect(report.error).toBeUndefined();
      expect(report.outputs.n).toBe(5);
      expect(report.steps[0]!.requests).toBeGreaterThanOrEqual(2);
    } finally {
      await c.close();
      await slow.close();
    }
  });
});
