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
