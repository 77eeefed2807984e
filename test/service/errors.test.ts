import { afterEach, describe, expect, it } from 'vitest';
import { createTestService, type TestService } from './helpers.js';
import { echoConnector, echoMigrations } from './support/echo-connector.js';

let svc: TestService | undefined;
afterEach(async () => {
  await svc?.close();
  svc = undefined;
});

describe('error handling', () => {
  it('answers unknown routes with 404 in the error shape', async () => {
    svc = await createTestService();
    const res = await svc.app.inject({ method: 'GET', url: '/api/v1/nope?x=1' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({
      message: 'no route GET /api/v1/nope',
      errors: [{ field: null, message: 'no route GET /api/v1/nope', error_code: 'not_found', details: null }],
    });
  });

  it('answers a body over the limit with 413', async () => {
    svc = await createTestService({ bodyLimit: 1000 });
    const res = await svc.app.inject({
      method: 'POST',
      url: '/api/v1/account/applications/token',
      payload: { client_id: 'x'.repeat(2000), client_secret: 'y' },
    });
    expect(res.statusCode).toBe(413);
    expect(res.json()).toMatchObject({
      message: 'request body is larger than 1000 bytes',
      errors: [{ error_code: 'payload_too_large' }],
    });
  });

  it('answers a non-JSON body with 415', async () => {
    svc = await createTestService();
    const res = await svc.app.inject({
      method: 'POST',
      url: '/api/v1/account/applications/token',
      payload: 'client_id=x',
      headers: { 'content-type': 'text/plain' },
    });
    expect(res.statusCode).toBe(415);
    expect(res.json().errors[0].error_code).toBe('unsupported_media_type');
  });

  it('answers broken JSON with 400 naming the body', async () => {
    svc = await createTestService();
    const res = await svc.app.inject({
      method: 'POST',
      url: '/api/v1/account/applications/token',
      payload: '{"client_id":',
      headers: { 'content-type': 'application/json' },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors[0]).toMatchObject({ field: 'body', error_code: 'validation_error' });
  });

  it('hides unknown errors behind a bare 500', async () => {
    svc = await createTestService({ connectorTypes: [echoConnector], migrations: echoMigrations });
    const id = await svc.createConnector('echo');
    const res = await svc.execute(id, { entity: 'files', action: 'boom', params: {} });
    expect(res.statusCode).toBe(500);
    expect(res.json()).toEqual({
      message: 'internal error',
      errors: [{ field: null, message: 'internal error', error_code: 'internal_error', details: null }],
    });
    expect(res.body).not.toMatch(/SELECT|stack|at /);
  });
});

describe('JSON bodies', () => {
  it('treats an empty application/json body as no body', async () => {
    svc = await createTestService({ connectorTypes: [echoConnector], migrations: echoMigrations });
    const id = await svc.createConnector('echo');
    const headers = { ...(await svc.auth()), 'content-type': 'application/json' };
    const del = await svc.app.inject({
      method: 'DELETE',
      url: `/api/v1/integrations/connectors/${id}`,
      headers,
      payload: '',
    });
    expect(del.statusCode).toBe(202);
    const post = await svc.app.inject({
      method: 'POST',
      url: '/api/v1/account/applications/token',
      headers: { 'content-type': 'application/json' },
      payload: '',
    });
    expect(post.statusCode).toBe(400);
    expect(post.json().errors[0]).toMatchObject({ field: 'body', error_code: 'validation_error' });
  });

  it('refuses __proto__ keys', async () => {
    svc = await createTestService();
    const res = await svc.app.inject({
      method: 'POST',
      url: '/api/v1/account/applications/token',
      headers: { 'content-type': 'application/json' },
      payload: '{"client_id":"a","client_secret":"b","__proto__":{"admin":true}}',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors[0].error_code).toBe('validation_error');
  });
});

describe('strings that are not well-formed Unicode', () => {
  it('refuses a lone surrogate anywhere in a body with 400 naming its path, on every route', async () => {
    svc = await createTestService();
    const headers = { ...(await svc.auth()), 'content-type': 'application/json' };
    const post = (url: string, payload: string, method: 'POST' | 'PUT' = 'POST') =>
      svc!.app.inject({ method, url: `/api/v1${url}`, headers, payload });
    const cases: [string, string, string][] = [
      ['/integrations/connectors', '{"workspace_name":"default","connector_type":"crm","name":"\\uD800x"}', 'name'],
      ['/integrations/connectors', '{"workspace_name":"default","connector_type":"crm","name":"x\\udc00"}', 'name'],
      [
        '/integrations/connectors',
        '{"workspace_name":"default","connector_type":"crm","name":"\\udc00\\ud800"}',
        'name',
      ],
      ['/account/applications/token', '{"client_id":"a\\ud83d","client_secret":"b"}', 'client_id'],
    ];
    const id = await svc.createConnector('crm');
    cases.push(
      [
        `/integrations/connectors/${id}/execute`,
        '{"entity":"contacts","action":"create","params":{"properties":{"email":"a@b.c","firstname":"\\ud800"}}}',
        'params.properties.firstname',
      ],
      [
        `/integrations/connectors/${id}/execute`,
        '{"entity":"contacts","action":"list","select_fields":["id","\\udfff"]}',
        'select_fields.1',
      ],
      [
        `/integrations/connectors/${id}/execute`,
        '{"entity":"contacts","action":"list","params":{"\\ud800":1}}',
        'params.\ufffd',
      ],
    );
    for (const [url, payload, field] of cases) {
      const res = await post(url, payload);
      expect(res.statusCode, `${url} ${payload}: ${res.body}`).toBe(400);
      expect(res.json()).toMatchObject({
        message: expect.stringMatching(/lone surrogate/),
        errors: [{ field, error_code: 'validation_error' }],
      });
    }
    const ws = (await (await svc.app.inject({ method: 'GET', url: '/api/v1/workspaces', headers })).json()).data[0].id;
    expect((await post(`/workspaces/${ws}`, '{"name":"\\ud800"}', 'PUT')).statusCode).toBe(400);
    // Nothing was stored: the connector list still has only the one made above.
    const list = await svc.app.inject({
      method: 'GET',
      url: '/api/v1/integrations/connectors?workspace_name=default',
      headers,
    });
    expect(list.json().data.map((c: { id: string }) => c.id)).toEqual([id]);
  });

  it('accepts surrogate pairs, escaped or not, and a text that only looks like an escape', async () => {
    svc = await createTestService();
    const headers = { ...(await svc.auth()), 'content-type': 'application/json' };
    for (const name of ['\\ud83d\\ude00 escaped pair', '😀 literal pair', 'a backslash \\\\ud800 is text']) {
      const res = await svc.app.inject({
        method: 'POST',
        url: '/api/v1/integrations/connectors',
        headers,
        payload: `{"workspace_name":"default","connector_type":"crm","name":"${name}"}`,
      });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().name).toBe(JSON.parse(`"${name}"`));
    }
  });
});
