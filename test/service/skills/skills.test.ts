import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { filesConnector } from '../../../src/service/connectors/files/index.js';
import type { TestService } from '../helpers.js';
import { createPeopleService } from '../context-store/support/harness.js';

let svc: TestService;
let filesId: string;
let peopleId: string;

beforeEach(async () => {
  svc = await createPeopleService({ hold: 'Loading' });
  filesId = await svc.createConnector('files', { name: 'Team files' });
  peopleId = await svc.createConnector('people');
});
afterEach(async () => svc.close());

async function get(url: string, org = svc.org) {
  return svc.app.inject({ method: 'GET', url, headers: await org.auth() });
}

describe('GET /skills and /skills/search', () => {
  it('lists the static skill and one skill per connector of the organization', async () => {
    const res = await get('/api/v1/skills');
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.next_cursor).toBeNull();
    expect(body.data.map((s: any) => s.id)).toEqual([
      'agent:recipes',
      `connector-source:${filesId}`,
      `connector-source:${peopleId}`,
    ]);
    expect(body.data[0]).toMatchObject({ kind: 'static' });
    const files = body.data[1];
    expect(files).toMatchObject({ kind: 'connector_source', title: 'Team files (Files)', tags: ['files', 'folders'] });
    expect(body.data[2].warnings.join(' ')).toMatch(/people \(Loading\)/);

    const other = await svc.createOrg();
    const theirs = (await get('/api/v1/skills', other)).json();
    expect(theirs.data.map((s: any) => s.id)).toEqual(['agent:recipes']);
  });

  it('narrows connector skills to one workspace with workspace_id', async () => {
    const mine = (await get(`/api/v1/skills?workspace_id=${svc.org.defaultWorkspaceId}`)).json();
    expect(mine.data.map((s: any) => s.id)).toEqual([
      'agent:recipes',
      `connector-source:${filesId}`,
      `connector-source:${peopleId}`,
    ]);
    const none = (await get('/api/v1/skills?workspace_id=00000000-0000-4000-8000-000000000000')).json();
    expect(none.data.map((s: any) => s.id)).toEqual(['agent:recipes']);
  });

  it('pages with limit and next_cursor', async () => {
    const ids: string[] = [];
    let url = '/api/v1/skills?limit=1';
    for (;;) {
      const body = (await get(url)).json();
      expect(body.data).toHaveLength(1);
      ids.push(body.data[0].id);
      if (!body.next_cursor) break;
      url = `/api/v1/skills?limit=1&cursor=${body.next_cursor}`;
    }
    expect(ids).toHaveLength(3);
    expect(new Set(ids).size).toBe(3);
    expect((await get('/api/v1/skills?limit=0')).statusCode).toBe(400);
    expect((await get('/api/v1/skills?cursor=bogus!')).statusCode).toBe(400);
  });

  it('refuses a well-formed cursor it did not issue (an offset written by hand)', async () => {
    for (const offset of ['o:1', 'o:2', 'o:999']) {
      const res = await get(`/api/v1/skills?limit=1&cursor=${Buffer.from(offset).toString('base64url')}`);
      expect(res.statusCode, offset).toBe(400);
      expect(res.json().errors[0]).toMatchObject({ field: 'query.cursor', error_code: 'invalid_cursor' });
    }
  });

  it('searches by word prefixes over id, title, summary and tags', async () => {
    const body = (await get('/api/v1/skills/search?query=folders')).json();
    expect(body.data.map((s: any) => s.id)).toEqual([`connector-source:${filesId}`]);
    expect((await get('/api/v1/skills/search?query=PAGING%20guide')).json().data.map((s: any) => s.id)).toEqual([
      'agent:recipes',
    ]);
    expect((await get('/api/v1/skills/search?query=nothingmatches')).json().data).toEqual([]);
    expect((await get('/api/v1/skills/search')).statusCode).toBe(400);
  });
});

describe('GET /skills/docs', () => {
  it('answers the outline and guidance without a section', async () => {
    const res = await get(`/api/v1/skills/docs?id=connector-source:${filesId}`);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.metadata.id).toBe(`connector-source:${filesId}`);
    expect(body.section_id).toBeNull();
    const ids = body.outline.map((s: any) => s.id);
    for (const a of filesConnector.actions) expect(ids).toContain(`actions.${a.entity}.${a.action}`);
    expect(ids).toContain('entities.folders');
    const text = JSON.stringify(body.content);
    expect(text).toMatch(/next_offset/);
    expect(text).toMatch(/inspect/);
    for (const block of body.content) expect(['heading', 'paragraph', 'list', 'code', 'table']).toContain(block.type);
  });

  it("answers a section generated from the action's params schema: params table, example, response shape", async () => {
    const body = (await get(`/api/v1/skills/docs?id=connector-source:${filesId}&section=actions.files.list`)).json();
    expect(body.section_id).toBe('actions.files.list');
    const tables = body.content.filter((b: any) => b.type === 'table');
    const params = tables[0];
    expect(params.headers).toEqual(['name', 'type', 'required', 'rules']);
    const descriptor = filesConnector.actions.find((a) => a.entity === 'files' && a.action === 'list')!;
    const schemaProps = Object.keys(descriptor.paramsSchema.properties as object);
    expect(params.rows.map((r: string[]) => r[0])).toEqual(schemaProps);
    const limitRow = params.rows.find((r: string[]) => r[0] === 'limit');
    expect(limitRow[1]).toBe('integer');
    expect(limitRow[3]).toMatch(/maximum 200/);
    expect(limitRow[3]).toMatch(/default 50/);
    const example = body.content.find((b: any) => b.type === 'code');
    expect(example.code).toMatch(new RegExp(`/api/v1/integrations/connectors/${filesId}/execute`));
    expect(example.code).toMatch(/"entity":"files","action":"list"/);
    const response = tables[1];
    expect(response.rows.map((r: string[]) => r[0])).toEqual(
      expect.arrayContaining(['id', 'folderId', 'name', 'contentType', 'size']),
    );

    const create = (
      await get(`/api/v1/skills/docs?id=connector-source:${filesId}&section=actions.files.create`)
    ).json();
    const createRows = create.content.find((b: any) => b.type === 'table').rows;
    expect(
      createRows
        .filter((r: string[]) => r[2] === 'yes')
        .map((r: string[]) => r[0])
        .sort(),
    ).toEqual(['content', 'folderId', 'name']);
  });

  it('marks context_store_search unavailable while Loading and documents its fields', async () => {
    const body = (await get(`/api/v1/skills/docs?id=connector-source:${peopleId}`)).json();
    const search = body.outline.find((s: any) => s.id === 'actions.people.context_store_search');
    expect(search.available).toBe(false);
    const section = (
      await get(`/api/v1/skills/docs?id=connector-source:${peopleId}&section=actions.people.context_store_search`)
    ).json();
    const text = JSON.stringify(section.content);
    expect(text).toMatch(/Loading/);
    expect(text).toMatch(/properties\.email/);
    expect(text).toMatch(/fuzzy/);
  });

  it('serves the static skill and its sections', async () => {
    const body = (await get('/api/v1/skills/docs?id=agent:recipes')).json();
    expect(body.outline.map((s: any) => s.id)).toEqual(['call-order', 'paging', 'errors', 'context-store']);
    const paging = (await get('/api/v1/skills/docs?id=agent:recipes&section=paging')).json();
    expect(JSON.stringify(paging.content)).toMatch(/params\.offset/);
  });

  it("answers 404 for unknown ids and sections, and for another organization's connector", async () => {
    expect((await get('/api/v1/skills/docs?id=connector-source:nope')).statusCode).toBe(404);
    expect((await get('/api/v1/skills/docs?id=agent:nope')).statusCode).toBe(404);
    const badSection = await get(`/api/v1/skills/docs?id=connector-source:${filesId}&section=actions.files.explode`);
    expect(badSection.statusCode).toBe(404);
    expect(badSection.json().errors[0].field).toBe('query.section');
    expect((await get('/api/v1/skills/docs?id=agent:recipes&section=nope')).statusCode).toBe(404);
    for (const name of ['__proto__', 'constructor', 'toString', 'hasOwnProperty']) {
      for (const id of ['agent:recipes', `connector-source:${filesId}`]) {
        const res = await get(`/api/v1/skills/docs?id=${id}&section=${name}`);
        expect(res.statusCode, `${id} ${name}: ${res.body}`).toBe(404);
        expect(res.json().errors[0]).toMatchObject({ field: 'query.section', error_code: 'not_found' });
      }
    }
    const other = await svc.createOrg();
    expect((await get(`/api/v1/skills/docs?id=connector-source:${filesId}`, other)).statusCode).toBe(404);
    expect((await get('/api/v1/skills/docs')).statusCode).toBe(400);
  });
});
