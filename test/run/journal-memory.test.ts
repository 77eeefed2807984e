import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { envelope, json, startFaultServer, type FaultServer } from '../client/fault-server.js';
import type { ConnectorClient } from '../../src/client/index.js';
import { openJournal } from '../../src/journal/index.js';
import { beginRun, runPlan } from '../../src/run/index.js';
import { compile, tempDir, testClient, writeFiles } from './helpers.js';

// A real collection between samples makes the heap figures mean "live data", not "garbage not yet swept".
setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

const TOTAL = 200_000;
const PAGE = 1000;
const PAD = 'x'.repeat(400);

let server: FaultServer;
let client: ConnectorClient;

beforeAll(async () => {
  server = await startFaultServer((req, res) => {
    if (req.path.endsWith('/inspect')) return json(res, 200, {});
    const start = Number((req.body as { params: { cursor?: string } }).params.cursor ?? 0);
    const page = Array.from({ length: Math.min(PAGE, TOTAL - start) }, (_, i) => ({
      id: String(start + i),
      properties: { pad: PAD },
    }));
    const more = start + PAGE < TOTAL;
    json(res, 200, envelope(page, { has_next_page: more, end_cursor: more ? String(start + PAGE) : null }));
  });
  client = testClient(server.url, { clientId: 'id-1', clientSecret: 'shh-secret-1' });
});
afterAll(async () => {
  await client.close();
  await server.close();
});

it('a journaled streaming paginate journals its pages as they come and keeps its memory bound', async () => {
  const dir = tempDir();
  writeFiles(dir, {
    'stream.yaml': `version: 1
name: stream-journaled
connector: { id: c-1 }
steps:
  - id: s
    paginate: { entity: things, action: list, max_pages: 1000 }
    as: rec
    steps:
      - transform: "\${ $rec.id }"
outputs:
  summary: "\${ $s }"
`,
  });
  const plan = await compile(join(dir, 'stream.yaml'));
  const store = openJournal(join(dir, 'runs.db'));
  const durable = await beginRun({ store, plan, inputs: {}, dryRun: false, redactor: client.redactor, env: {} });
  gc();
  const baseline = process.memoryUsage().heapUsed;
  let peak = 0;
  let pages = 0;
  const report = await runPlan(plan, {
    client,
    redactor: client.redactor,
    inputs: {},
    sleep: async () => undefined,
    durable,
    onEvent: (e) => {
      if (e.type === 'step-progress' && e.step.kind === 'paginate' && e.step.records > pages * PAGE) {
        pages++;
        if (pages % 20 === 0) {
          gc();
          peak = Math.max(peak, process.memoryUsage().heapUsed - baseline);
        }
      }
    },
  });
  expect(report.status).toBe('ok');
  expect(report.outputs.summary).toEqual({ items: TOTAL, pages: TOTAL / PAGE, truncated: false });
  // Every page is in the journal (about 90 MB of answers), yet the run's heap never held more than a few.
  const exchanges = await store.listExchanges(report.run_id);
  expect(exchanges.filter((e) => e.call_key.startsWith('s#') && e.state === 'answered')).toHaveLength(TOTAL / PAGE);
  expect(peak).toBeLessThan(30 * 1024 * 1024);
  await store.close();
}, 120_000);
