import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { envelope, executes, json, startFaultServer, type FaultServer, type Seen } from '../client/fault-server.js';
import type { ConnectorClient } from '../../src/client/index.js';
import { join } from 'node:path';
import { openJournal } from '../../src/journal/index.js';
import { compile, runJournaled, runYaml, tempDir, testClient, writeFiles } from './helpers.js';

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

const records = (from: number, n: number) => Array.from({ length: n }, (_, i) => ({ id: String(from + i) }));
const params = (s: Seen) => (s.body as { params: Record<string, unknown> }).params;

function recipe(paginate: string, extra = ''): string {
  return `version: 1
name: paging
connector: { id: c-1 }
steps:
  - id: all
    paginate: ${paginate}
${extra}outputs:
  ids: "\${ $all.id }"
  n: "\${ $count($all) }"
`;
}

/** 25 records in pages of 10, with the paging style given; inspect declares `declared` as the action's params. */
function serve(style: 'cursor' | 'after' | 'offset' | 'store', declared: string[] | null = null): void {
  server.seen.length = 0;
  server.handle = (req, res) => {
    if (req.path.endsWith('/inspect')) {
      return json(
        res,
        200,
        declared
          ? { actions: [{ entity: 'things', action: 'list', required_params: [], optional_params: declared }] }
          : {},
      );
    }
    const p = params(req);
    const key = declared?.includes('after') && !declared.includes('cursor') ? 'after' : 'cursor';
    if (declared && p[key === 'after' ? 'cursor' : 'after'] !== undefined)
      return json(res, 400, { message: `use ${key}` });
    const start = style === 'offset' ? Number(p.offset ?? 0) : Number(p.cursor ?? p.after ?? 0);
    const page = start >= 25 ? [] : records(start, Math.min(10, 25 - start));
    const more = start + 10 < 25;
    const next = String(start + 10);
    if (style === 'cursor')
      return json(res, 200, envelope(page, { has_next_page: more, end_cursor: more ? next : null }));
    if (style === 'after') {
      if ('cursor' in p) return json(res, 400, { message: 'use params.after, not params.cursor' });
      return json(
        res,
        200,
        envelope(page, {
          next_cursor: more ? next : null,
          next_link: null,
          has_next_page: more,
          end_cursor: more ? next : null,
        }),
      );
    }
    if (style === 'offset') {
      if ('cursor' in p) return json(res, 400, { message: 'use offset/limit' });
      return json(res, 200, envelope(page, { has_more: more, next_offset: more ? start + 10 : null }));
    }
    return json(res, 200, envelope({ data: page, meta: { has_more: more, cursor: more ? next : null, took_ms: 1 } }));
  };
}

describe('paginate: automatic paging keys', () => {
  const ids = records(0, 25).map((r) => r.id);

  it('has_next_page/end_cursor → params.cursor (inspect asked once for the action params, and says nothing)', async () => {
    serve('cursor');
    const { report } = await runYaml(
      tempDir(),
      recipe('{ entity: things, action: list, params: { limit: 10 } }'),
      client,
    );
    expect(report.outputs).toEqual({ ids, n: 25 });
    expect(executes(server).map((s) => params(s).cursor)).toEqual([undefined, '10', '20']);
    expect(server.seen.filter((s) => s.path.endsWith('/inspect'))).toHaveLength(1);
    expect(report.steps[0]).toMatchObject({ requests: 4 });
  });

  it('has_next_page/end_cursor → params.after when the action declares after and not cursor', async () => {
    serve('cursor', ['limit', 'after']);
    const { report } = await runYaml(
      tempDir(),
      recipe('{ entity: things, action: list, params: { limit: 10 } }'),
      client,
    );
    expect(report.outputs).toEqual({ ids, n: 25 });
    expect(executes(server).map((s) => params(s).after)).toEqual([undefined, '10', '20']);
  });

  it('next_cursor → params.cursor when the action declares cursor and not after', async () => {
    serve('after', ['limit', 'cursor']);
    server.handle = ((inner) => (req: Parameters<typeof inner>[0], res: Parameters<typeof inner>[1]) => {
      if (req.path.endsWith('/inspect')) return inner(req, res);
      const p = params(req);
      if ('after' in p) return json(res, 400, { message: 'use cursor' });
      const start = Number(p.cursor ?? 0);
      const more = start + 10 < 25;
      return json(
        res,
        200,
        envelope(records(start, Math.min(10, 25 - start)), {
          next_cursor: more ? String(start + 10) : null,
          has_more: more,
        }),
      );
    })(server.handle);
    const { report } = await runYaml(
      tempDir(),
      recipe('{ entity: things, action: list, params: { limit: 10 } }'),
      client,
    );
    expect(report.outputs).toEqual({ ids, n: 25 });
    expect(executes(server).map((s) => params(s).cursor)).toEqual([undefined, '10', '20']);
  });

  it('CRM list: next_cursor → params.after (never cursor, which the CRM rejects)', async () => {
    serve('after');
    const { report } = await runYaml(
      tempDir(),
      recipe('{ entity: contacts, action: list, params: { limit: 10 } }'),
      client,
    );
    expect(report.outputs).toEqual({ ids, n: 25 });
    expect(executes(server).map((s) => params(s).after)).toEqual([undefined, '10', '20']);
  });

  it('offset/limit: next_offset/has_more → params.offset', async () => {
    serve('offset');
    const { report } = await runYaml(
      tempDir(),
      recipe('{ entity: files, action: list, params: { limit: 10 } }'),
      client,
    );
    expect(report.outputs).toEqual({ ids, n: 25 });
    expect(executes(server).map((s) => params(s).offset)).toEqual([undefined, 10, 20]);
  });

  it('context_store_search: result.meta.cursor/has_more → params.cursor, items from result.data', async () => {
    serve('store');
    const { report } = await runYaml(
      tempDir(),
      recipe('{ entity: deals, action: context_store_search, params: { query: {}, limit: 10 } }'),
      client,
    );
    expect(report.outputs).toEqual({ ids, n: 25 });
    expect(executes(server).map((s) => params(s).cursor)).toEqual([undefined, '10', '20']);
  });
});

describe('paginate: limits and guards', () => {
  it('the run-level page cap (RunOptions.maxPages) wins over a larger max_pages', async () => {
    serve('cursor');
    const { report } = await runYaml(tempDir(), recipe('{ entity: things, action: list, max_pages: 50 }'), client, {
      maxPages: 1,
    });
    expect(report.outputs.n).toBe(10);
    expect(report.steps[0]?.truncated).toBe(true);
    expect(executes(server)).toHaveLength(1);
  });
});

describe('paginate: streaming', () => {
  it('runs each item through the steps as pages arrive and keeps nothing', async () => {
    serve('cursor');
    const { report, logs } = await runYaml(
      tempDir(),
      `version: 1
name: stream
connector: { id: c-1 }
steps:
  - id: s
    paginate: { entity: things, action: list }
    as: rec
    steps:
      - log: "rec \${ $rec.id }"
outputs:
  summary: "\${ $s }"
`,
      client,
    );
    expect(report.outputs.summary).toEqual({ items: 25, pages: 3, truncated: false });
    const recs = logs.filter((l) => l.startsWith('info: rec '));
    expect(recs).toHaveLength(25);
    expect(recs[24]).toBe('info: rec 24');
    expect(report.steps.find((s) => s.kind === 'log')).toMatchObject({ runs: 25, depth: 1 });
  });
  const streamWith = (itemSteps: string, next = '') => `version: 1
name: stream
connector: { id: c-1 }
steps:
  - id: s
    paginate: { entity: things, action: list${next} }
    as: rec
    steps:
${itemSteps}
`;
  const actionOf = (s: Seen) => (s.body as { action: string }).action;

  it('asks for the next page before the items of this one run (read ahead), in the same order of pages', async () => {
    serve('cursor');
    const { report } = await runYaml(
      tempDir(),
      streamWith('      - execute: { entity: things, action: get, params: { id: "${ $rec.id }" } }'),
      client,
    );
    expect(report.status).toBe('ok');
    const seen = executes(server);
    const lists = seen.flatMap((s, i) => (actionOf(s) === 'list' ? [i] : []));
    // Three pages in order (the third says there is no next one).
    expect(lists.map((i) => params(seen[i] as Seen).cursor)).toEqual([undefined, '10', '20']);
    // Page 2 was asked for before the last item of page 1 made its call (without read-ahead: after it).
    const lastGetOfPage1 = seen.findIndex((s) => actionOf(s) === 'get' && params(s).id === '9');
    expect(lists[1]).toBeLessThan(lastGetOfPage1);
    expect(seen.filter((s) => actionOf(s) === 'get')).toHaveLength(25);
  });

  it('an item that fails stops the step once the page read ahead is answered; nothing after it is asked', async () => {
    serve('cursor');
    const { report } = await runYaml(
      tempDir(),
      streamWith('      - when: "${ $rec.id = \'3\' }"\n        fail: "record ${ $rec.id } is bad"'),
      client,
    );
    expect(report.status).toBe('failed');
    expect(report.error?.message).toContain('record 3 is bad');
    // Page 1, and page 2 read ahead while page 1's items ran; never page 3.
    expect(executes(server).map((s) => params(s).cursor)).toEqual([undefined, '10']);
  });

  it('an error in `next` is raised after the items of the page it follows, as without read-ahead', async () => {
    serve('cursor');
    const { report, logs } = await runYaml(
      tempDir(),
      streamWith('      - log: "rec ${ $rec.id }"', ', next: "${ $number(\'not a number\') }"'),
      client,
    );
    expect(report.status).toBe('failed');
    expect(report.error?.code).toBe('X008');
    expect(logs.filter((l) => l.startsWith('info: rec '))).toHaveLength(10);
    expect(executes(server)).toHaveLength(1);
  });
});

describe('paginate: the journal', () => {
  it('keeps each page as the service sent its text (not serialised again from the parsed answer)', async () => {
    const sent: string[] = [];
    server.handle = (req, res) => {
      const start = Number(params(req).cursor ?? 0);
      const more = start === 0;
      // Spaces and key order JSON.stringify of the parsed answer would not give back.
      const text = `{ "connector_metadata" : { "has_next_page": ${more}, "end_cursor": ${more ? '"2"' : 'null'} },  "result": ${JSON.stringify(records(start, 2))} }`;
      sent.push(text);
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
      res.end(text);
    };
    const dir = tempDir();
    writeFiles(dir, { 'main.yaml': recipe('{ entity: things, action: list }') });
    const plan = await compile(join(dir, 'main.yaml'));
    const store = openJournal(join(dir, 'runs.db'));
    try {
      const report = await runJournaled(plan, store, client, { runId: 'raw' });
      expect(report.outputs.n).toBe(4);
      const answers = (await store.listExchanges('raw')).filter((x) => x.kind === 'execute').map((x) => x.answer);
      expect(answers).toEqual(sent);
    } finally {
      await store.close();
    }
  });
});
