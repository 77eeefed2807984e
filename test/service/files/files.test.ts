import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestService, type TestService } from '../helpers.js';

let svc: TestService;
let connectorId: string;

async function run(entity: string, action: string, params?: Record<string, unknown>) {
  return svc.execute(connectorId, { entity, action, ...(params && { params }) });
}

async function ok(entity: string, action: string, params?: Record<string, unknown>) {
  const res = await run(entity, action, params);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as { status: string; result: any; connector_metadata: Record<string, unknown> };
}

const b64 = (s: string | Buffer) => Buffer.from(s).toString('base64');

beforeEach(async () => {
  svc = await createTestService();
  connectorId = await svc.createConnector('files');
});
afterEach(async () => svc.close());

describe('Files connector: folders and files', () => {
  it('creates a folder and a file, reads them back and lists them', async () => {
    const folder = (await ok('folders', 'create', { name: 'Reports' })).result;
    expect(folder).toMatchObject({ name: 'Reports', parentId: null, fileCount: 0 });
    expect(folder.id).toMatch(/^[0-9]+$/);
    const child = (await ok('folders', 'create', { name: 'Old', parentId: folder.id })).result;
    expect(child.parentId).toBe(folder.id);

    const file = (
      await ok('files', 'create', { name: 'summary.txt', folderId: folder.id, content: b64('hello world\n') })
    ).result;
    expect(file).toMatchObject({
      folderId: folder.id,
      name: 'summary.txt',
      contentType: 'text/plain; charset=utf-8',
      size: 12,
    });
    expect(file.sha256).toBe('a948904f2f0f479b8f8197694b30184b0d2ed1c1cd2a1ec0fb85d299a192a447');

    expect((await ok('files', 'get', { fileId: file.id })).result).toEqual(file);
    expect((await ok('folders', 'get', { folderId: folder.id })).result.fileCount).toBe(1);
    const listed = await ok('files', 'list', { folderId: folder.id });
    expect(listed.result).toEqual([file]);
    expect(listed.connector_metadata).toEqual({ has_more: false, next_offset: null, has_next_page: false, total: 1 });
    const children = await ok('folders', 'list', { parentId: folder.id });
    expect(children.result.map((f: any) => f.name)).toEqual(['Old']);
  });

  it('uses the given content_type and refuses bad content, missing folders and unknown params', async () => {
    const folder = (await ok('folders', 'create', { name: 'F' })).result;
    const json = (
      await ok('files', 'create', {
        name: 'data.bin',
        folderId: folder.id,
        content: b64('{}'),
        content_type: 'application/json',
      })
    ).result;
    expect(json.contentType).toBe('application/json');

    const notB64 = await run('files', 'create', { name: 'x.txt', folderId: folder.id, content: 'not base64!' });
    expect(notB64.statusCode).toBe(400);
    expect(notB64.json().errors[0].field).toBe('params.content');

    const empty = await run('files', 'create', { name: 'x.txt', folderId: folder.id, content: '' });
    expect(empty.statusCode).toBe(400);

    const noFolder = await run('files', 'create', { name: 'x.txt', folderId: '9999', content: b64('x') });
    expect(noFolder.statusCode).toBe(404);
    expect(noFolder.json().errors[0].field).toBe('params.folderId');

    const slash = await run('files', 'create', { name: 'a/b.txt', folderId: folder.id, content: b64('x') });
    expect(slash.statusCode).toBe(400);

    const unknown = await run('folders', 'list', { after: 'x' });
    expect(unknown.statusCode).toBe(400);

    // Nothing of the refused writes was stored.
    expect((await ok('files', 'list')).connector_metadata.total).toBe(1);
  });

  it('answers 404 for unknown ids in get', async () => {
    for (const [entity, params] of [
      ['files', { fileId: '12345' }],
      ['files', { fileId: 'abc' }],
      ['folders', { folderId: '777' }],
    ] as const) {
      const res = await run(entity, 'get', params);
      expect(res.statusCode).toBe(404);
      expect(res.json().errors[0].error_code).toBe('not_found');
    }
  });

  it("keeps connectors apart: another connector cannot read this one's files", async () => {
    const folder = (await ok('folders', 'create', { name: 'Mine' })).result;
    const file = (await ok('files', 'create', { name: 'a.txt', folderId: folder.id, content: b64('a') })).result;
    const other = await svc.createConnector('files');
    const res = await svc.execute(other, { entity: 'files', action: 'get', params: { fileId: file.id } });
    expect(res.statusCode).toBe(404);
    const dl = await svc.execute(other, { entity: 'files', action: 'download', params: { fileId: file.id } });
    expect(dl.statusCode).toBe(404);
  });
});

describe('Files connector: offset paging', () => {
  it('pages with offset/limit to the end with has_more/next_offset and refuses cursor', async () => {
    const folder = (await ok('folders', 'create', { name: 'Many' })).result;
    for (let i = 0; i < 7; i++)
      await ok('files', 'create', { name: `f${i}.txt`, folderId: folder.id, content: b64(`file ${i}`) });

    const seen: string[] = [];
    let offset: number | null = 0;
    let pages = 0;
    while (offset !== null) {
      const page = await ok('files', 'list', { offset, limit: 3 });
      pages += 1;
      seen.push(...page.result.map((f: any) => f.name));
      expect(page.connector_metadata.has_next_page).toBe(page.connector_metadata.has_more);
      offset = page.connector_metadata.next_offset as number | null;
    }
    expect(pages).toBe(3);
    expect(seen).toEqual(['f0.txt', 'f1.txt', 'f2.txt', 'f3.txt', 'f4.txt', 'f5.txt', 'f6.txt']);

    const defaults = await ok('files', 'list');
    expect(defaults.result).toHaveLength(7);
    expect(defaults.connector_metadata).toMatchObject({ has_more: false, next_offset: null, total: 7 });

    for (const entity of ['files', 'folders']) {
      const res = await run(entity, 'list', { cursor: 'abc' });
      expect(res.statusCode).toBe(400);
      const body = res.json();
      expect(body.errors[0].field).toBe('params.cursor');
      expect(body.message).toMatch(/offset/);
      expect(body.message).toMatch(/limit/);
    }
    const tooBig = await run('files', 'list', { limit: 201 });
    expect(tooBig.statusCode).toBe(400);
    const negative = await run('files', 'list', { offset: -1 });
    expect(negative.statusCode).toBe(400);
  });
});

describe('Files connector: download', () => {
  it('answers the raw bytes with Content-Type and Content-Disposition, no envelope', async () => {
    const folder = (await ok('folders', 'create', { name: 'Bin' })).result;
    const bytes = Buffer.from([0, 1, 2, 250, 251, 252, 10, 13]);
    const file = (await ok('files', 'create', { name: 'raw "data".bin', folderId: folder.id, content: b64(bytes) }))
      .result;
    const res = await run('files', 'download', { fileId: file.id });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/octet-stream');
    expect(String(res.headers['content-disposition'])).toMatch(/^attachment; filename="raw _data_.bin"/);
    expect(res.rawPayload.equals(bytes)).toBe(true);
  });

  it('names any file in Content-Disposition: an ASCII fallback and filename* in UTF-8 (RFC 6266/8187)', async () => {
    const folder = (await ok('folders', 'create', { name: 'Names' })).result;
    const cases: [string, string, string | undefined][] = [
      ['日本語.txt', '___.txt', "UTF-8''%E6%97%A5%E6%9C%AC%E8%AA%9E.txt"],
      ['Łódź.pdf', '__d_.pdf', "UTF-8''%C5%81%C3%B3d%C5%BA.pdf"],
      ['🙂 smile.png', '_ smile.png', "UTF-8''%F0%9F%99%82%20smile.png"],
      ['100% "real".csv', '100_ _real_.csv', "UTF-8''100%25%20%22real%22.csv"],
      ['plain-name.txt', 'plain-name.txt', undefined],
    ];
    for (const [name, fallback, star] of cases) {
      const file = (await ok('files', 'create', { name, folderId: folder.id, content: b64('x') })).result;
      expect(file.name).toBe(name);
      const res = await run('files', 'download', { fileId: file.id });
      expect(res.statusCode, `${name}: ${res.body}`).toBe(200);
      expect(res.headers['content-disposition']).toBe(
        `attachment; filename="${fallback}"${star === undefined ? '' : `; filename*=${star}`}`,
      );
      const given = String(res.headers['content-disposition']).match(/filename\*=UTF-8''(.*)$/)?.[1];
      expect(given === undefined ? fallback : decodeURIComponent(given)).toBe(name);
    }
  });

  it('refuses a content_type a header cannot carry (control or non-ASCII characters) at create', async () => {
    const folder = (await ok('folders', 'create', { name: 'Types' })).result;
    for (const contentType of [
      'text/plain; x=\u0001',
      'text/plain;\r\nx-evil: 1',
      'text/plain; name=日本',
      'text/plain\u0000',
    ]) {
      const res = await run('files', 'create', {
        name: 'a.txt',
        folderId: folder.id,
        content: b64('x'),
        content_type: contentType,
      });
      expect(res.statusCode, JSON.stringify(contentType)).toBe(400);
      expect(res.json()).toMatchObject({ errors: [{ field: 'params.content_type', error_code: 'validation_error' }] });
    }
    const listed = await ok('files', 'list', { folderId: folder.id });
    expect(listed.result).toEqual([]);
    const fine = (
      await ok('files', 'create', {
        name: 'a.txt',
        folderId: folder.id,
        content: b64('x'),
        content_type: 'text/plain; charset="utf-8"',
      })
    ).result;
    expect((await run('files', 'download', { fileId: fine.id })).headers['content-type']).toBe(
      'text/plain; charset="utf-8"',
    );
  });

  it('takes the default type from own extensions only (a name ending in .constructor is octet-stream)', async () => {
    const folder = (await ok('folders', 'create', { name: 'Proto' })).result;
    for (const ext of ['constructor', 'toString', '__proto__', 'hasOwnProperty']) {
      const file = (await ok('files', 'create', { name: `a.${ext}`, folderId: folder.id, content: b64('x') })).result;
      expect(file.contentType).toBe('application/octet-stream');
      expect((await run('files', 'download', { fileId: file.id })).statusCode).toBe(200);
    }
  });

  it('answers 404 for an unknown file id, never an empty 200', async () => {
    const res = await run('files', 'download', { fileId: '424242' });
    expect(res.statusCode).toBe(404);
    expect(res.json().errors[0].field).toBe('params.fileId');
    expect(res.rawPayload.length).toBeGreaterThan(0);
  });
});

describe('Files connector: text content (encoding utf-8)', () => {
  it('stores the text as UTF-8 bytes and downloads exactly those bytes', async () => {
    const folder = (await ok('folders', 'create', { name: 'Exports' })).result;
    const csv = 'name,city\n"Zoë, Jr.",Zürich\n渡辺,東京\n😀,"multi\nline"\n';
    const file = (
      await ok('files', 'create', { name: 'contacts.csv', folderId: folder.id, content: csv, encoding: 'utf-8' })
    ).result;
    expect(file).toMatchObject({ name: 'contacts.csv', contentType: 'text/csv; charset=utf-8' });
    expect(file.size).toBe(Buffer.byteLength(csv, 'utf8'));
    const res = await run('files', 'download', { fileId: file.id });
    expect(res.statusCode).toBe(200);
    expect(res.rawPayload.equals(Buffer.from(csv, 'utf8'))).toBe(true);
  });

  it('defaults a text file without a known extension to text/plain; base64 stays the default encoding', async () => {
    const folder = (await ok('folders', 'create', { name: 'Notes' })).result;
    const text = (
      await ok('files', 'create', { name: 'README', folderId: folder.id, content: 'hi', encoding: 'utf-8' })
    ).result;
    expect(text.contentType).toBe('text/plain; charset=utf-8');
    const bytes = (await ok('files', 'create', { name: 'README2', folderId: folder.id, content: b64('hi') })).result;
    expect(bytes).toMatchObject({ contentType: 'application/octet-stream', size: 2 });
    const explicit = (
      await ok('files', 'create', { name: 'b.txt', folderId: folder.id, content: b64('yo'), encoding: 'base64' })
    ).result;
    expect(explicit.size).toBe(2);
    // "hi" is not valid base64: without encoding utf-8 it is refused, never stored as garbage.
    const notB64 = await run('files', 'create', { name: 'c.txt', folderId: folder.id, content: 'hi' });
    expect(notB64.statusCode).toBe(400);
    expect(notB64.json().errors[0].field).toBe('params.content');
  });

  it('refuses a lone surrogate, an empty text and an unknown encoding with a 400 naming the field', async () => {
    const folder = (await ok('folders', 'create', { name: 'Bad' })).result;
    const lone = await run('files', 'create', {
      name: 'x.txt',
      folderId: folder.id,
      content: 'a\ud800b',
      encoding: 'utf-8',
    });
    expect(lone.statusCode).toBe(400);
    expect(lone.json().errors[0]).toMatchObject({ field: 'params.content' });
    const empty = await run('files', 'create', { name: 'x.txt', folderId: folder.id, content: '', encoding: 'utf-8' });
    expect(empty.statusCode).toBe(400);
    const unknown = await run('files', 'create', {
      name: 'x.txt',
      folderId: folder.id,
      content: 'a',
      encoding: 'utf8',
    });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().errors[0].field).toBe('params.encoding');
  });
});
