import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serviceCodes } from '../../src/errors/index.js';
import { createTestService, type TestService } from './helpers.js';

// Refusals beyond a request's shape carry their own error_code (docs/service.md, "Errors"); the status and
// the body's shape are the same as for every other error.
let svc: TestService;
let crm: string;
let files: string;
beforeAll(async () => {
  svc = await createTestService();
  crm = await svc.createConnector('crm');
  files = await svc.createConnector('files');
});
afterAll(async () => svc.close());

async function codeOf(res: {
  statusCode: number;
  json(): any;
}): Promise<{ status: number; code: string; field: string }> {
  const body = res.json();
  expect(Object.keys(body).sort()).toEqual(['errors', 'message']);
  return { status: res.statusCode, code: body.errors[0].error_code, field: body.errors[0].field };
}

describe('specific 400 codes', () => {
  it('invalid_cursor and invalid_limit on the workspace and skills lists', async () => {
    const get = async (url: string) => codeOf(await svc.app.inject({ method: 'GET', url, headers: await svc.auth() }));
    expect(await get('/api/v1/workspaces?cursor=zzz')).toEqual({
      status: 400,
      code: 'invalid_cursor',
      field: 'query.cursor',
    });
    expect(await get('/api/v1/workspaces?limit=0')).toMatchObject({ code: 'invalid_limit', field: 'query.limit' });
    expect(await get('/api/v1/skills?limit=500')).toMatchObject({ code: 'invalid_limit', field: 'query.limit' });
    // A value the query schema refuses outright is a validation_error, never a 500.
    for (const url of ['/api/v1/workspaces?limit=abc', '/api/v1/workspaces?limit=1.5', '/api/v1/skills?limit=abc'])
      expect((await get(url)).status, url).toBe(400);
    expect(await get('/api/v1/skills?cursor=nope')).toEqual({
      status: 400,
      code: 'invalid_cursor',
      field: 'query.cursor',
    });
  });

  it('cursor_not_supported and invalid_limit on the connectors', async () => {
    const list = (id: string, params: Record<string, unknown>, entity = 'contacts') =>
      svc.execute(id, { entity, action: 'list', params }).then(codeOf);
    expect(await list(crm, { cursor: 'x' })).toEqual({
      status: 400,
      code: 'cursor_not_supported',
      field: 'params.cursor',
    });
    expect(await list(files, { cursor: 'x' }, 'files')).toMatchObject({ code: 'cursor_not_supported' });
    expect(await list(crm, { limit: 60, propertiesWithHistory: 'email' })).toEqual({
      status: 400,
      code: 'invalid_limit',
      field: 'params.limit',
    });
  });

  it('CRM codes: invalid_filter, invalid_search, invalid_property, unknown_object_type, invalid_association_type, invalid_id_property', async () => {
    const run = (entity: string, action: string, params: Record<string, unknown>) =>
      svc.execute(crm, { entity, action, params }).then(codeOf);
    expect(
      await run('contacts', 'api_search', {
        filterGroups: [{ filters: [{ propertyName: 'email', operator: 'BETWEEN', value: 'a' }] }],
      }),
    ).toMatchObject({ status: 400, code: 'invalid_filter' });
    expect(await run('contacts', 'api_search', { after: '10000' })).toMatchObject({ code: 'invalid_search' });
    expect(await run('deals', 'create', { properties: { dealname: 'x', closedate: 'not a date' } })).toMatchObject({
      code: 'invalid_property',
      field: 'params.properties.closedate',
    });
    expect(
      await run('associations', 'list', { fromObjectType: 'widgets', fromObjectId: '1', toObjectType: 'contacts' }),
    ).toMatchObject({ code: 'unknown_object_type', field: 'params.fromObjectType' });
    const a = (
      await svc.execute(crm, { entity: 'contacts', action: 'create', params: { properties: { email: 'a@x.io' } } })
    ).json();
    const b = (
      await svc.execute(crm, { entity: 'companies', action: 'create', params: { properties: { name: 'B' } } })
    ).json();
    expect(
      await run('associations', 'create', {
        fromObjectType: 'contacts',
        fromObjectId: a.result.id,
        toObjectType: 'companies',
        toObjectId: b.result.id,
        associationCategory: 'PLATFORM_DEFINED',
        associationTypeId: 9999,
      }),
    ).toMatchObject({ code: 'invalid_association_type', field: 'params.associationTypeId' });
    expect(await run('contacts', 'get', { contactId: 'x', idProperty: 'firstname' })).toMatchObject({
      code: 'invalid_id_property',
      field: 'params.idProperty',
    });
  });

  it('Files: invalid_content', async () => {
    const folder = (await svc.execute(files, { entity: 'folders', action: 'create', params: { name: 'F' } })).json();
    const res = await svc.execute(files, {
      entity: 'files',
      action: 'create',
      params: { name: 'a.txt', folderId: folder.result.id, content: 'not base64!' },
    });
    expect(await codeOf(res)).toEqual({ status: 400, code: 'invalid_content', field: 'params.content' });
  });
});

describe('the service catalog', () => {
  it('has one generic 400 left (H400, for connector types outside this package); every other 400 is specific', () => {
    const generic = Object.entries(serviceCodes).filter(
      ([, e]) => e.status === 400 && e.errorCode === 'validation_error' && e.template === '{message}',
    );
    expect(generic.map(([k]) => k)).toEqual(['H400']);
  });
});

describe('framework errors in the service error shape', () => {
  it('a malformed URL, a too long path parameter and a too deeply nested body', async () => {
    const get = async (url: string) => codeOf(await svc.app.inject({ method: 'GET', url, headers: await svc.auth() }));
    expect(await get('/api/v1/workspaces/%E0%A4%A')).toEqual({ status: 400, code: 'malformed_request', field: 'url' });
    expect(await get(`/api/v1/workspaces/${'a'.repeat(500)}`)).toEqual({
      status: 414,
      code: 'uri_too_long',
      field: 'url',
    });
    const deep = `${'['.repeat(5000)}${']'.repeat(5000)}`;
    const res = await svc.app.inject({
      method: 'POST',
      url: '/api/v1/account/applications/token',
      headers: { 'content-type': 'application/json' },
      payload: deep,
    });
    expect(await codeOf(res)).toEqual({ status: 400, code: 'json_too_deep', field: 'body' });
  });

  it('a request Node cannot parse gets our error shape on the socket', async () => {
    const { connect } = await import('node:net');
    await svc.app.listen({ host: '127.0.0.1', port: 0 });
    const { port } = svc.app.server.address() as { port: number };
    const answer = await new Promise<string>((resolve, reject) => {
      const socket = connect(port, '127.0.0.1', () =>
        socket.write('GET /api/v1/workspaces HTTP/1.1\r\nHost: x\r\nBad Header\r\n\r\n'),
      );
      let text = '';
      socket.on('data', (d) => (text += d.toString()));
      socket.on('close', () => resolve(text));
      socket.on('error', reject);
    });
    expect(answer).toMatch(/^HTTP\/1\.1 400 /);
    const body = JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4));
    expect(body.errors[0]).toMatchObject({ error_code: 'malformed_request', field: null });
  });
});
