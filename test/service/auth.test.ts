import { SignJWT } from 'jose';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestService, type TestService } from './helpers.js';

let svc: TestService;
beforeEach(async () => {
  svc = await createTestService();
});
afterEach(async () => {
  await svc.close();
});

const tokenUrl = '/api/v1/account/applications/token';

describe('POST /api/v1/account/applications/token', () => {
  it('answers a bearer token for the organization', async () => {
    const res = await svc.app.inject({
      method: 'POST',
      url: tokenUrl,
      payload: { client_id: svc.org.clientId, client_secret: svc.org.clientSecret },
    });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ token_type: 'bearer', expires_in: 900, organization_id: svc.org.organizationId });
    expect(body.access_token).toMatch(/^eyJ[\w-]+\.[\w-]+\.[\w-]+$/);
    const payload = JSON.parse(Buffer.from(body.access_token.split('.')[1], 'base64url').toString());
    expect(payload.organization_id).toBe(svc.org.organizationId);
    expect(payload.exp - payload.iat).toBe(900);
  });

  it('refuses a wrong secret and an unknown client the same way', async () => {
    const wrong = await svc.app.inject({
      method: 'POST',
      url: tokenUrl,
      payload: { client_id: svc.org.clientId, client_secret: 'nope' },
    });
    const unknown = await svc.app.inject({
      method: 'POST',
      url: tokenUrl,
      payload: { client_id: 'nobody', client_secret: 'nope' },
    });
    for (const res of [wrong, unknown]) {
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual({
        message: 'invalid client credentials',
        errors: [{ field: null, message: 'invalid client credentials', error_code: 'unauthorized', details: null }],
      });
    }
  });

  it('names each missing field with 400', async () => {
    const res = await svc.app.inject({ method: 'POST', url: tokenUrl, payload: {} });
    expect(res.statusCode).toBe(400);
    const fields = res
      .json()
      .errors.map((e: { field: string }) => e.field)
      .sort();
    expect(fields).toEqual(['client_id', 'client_secret']);
    expect(res.json().errors[0].error_code).toBe('validation_error');
  });

  it('rejects a mistyped field', async () => {
    const res = await svc.app.inject({ method: 'POST', url: tokenUrl, payload: { client_id: 5, client_secret: 'x' } });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors).toEqual([
      expect.objectContaining({ field: 'client_id', error_code: 'validation_error' }),
    ]);
  });
});

describe('auth hook', () => {
  const url = '/api/v1/integrations/definitions/sources';

  it('accepts a valid token', async () => {
    const res = await svc.app.inject({ method: 'GET', url, headers: await svc.auth() });
    expect(res.statusCode).toBe(200);
  });

  it('refuses a missing header', async () => {
    const res = await svc.app.inject({ method: 'GET', url });
    expect(res.statusCode).toBe(401);
    expect(res.json().errors[0]).toMatchObject({ error_code: 'unauthorized', field: 'header.authorization' });
  });

  it('refuses a malformed header and a malformed token', async () => {
    for (const authorization of ['Basic abc', 'Bearer', 'Bearer not-a-jwt']) {
      const res = await svc.app.inject({ method: 'GET', url, headers: { authorization } });
      expect(res.statusCode, authorization).toBe(401);
      expect(res.json().errors[0].error_code).toBe('unauthorized');
    }
  });

  it('refuses a token signed with another key', async () => {
    const forged = await new SignJWT({ organization_id: svc.org.organizationId })
      .setProtectedHeader({ alg: 'HS256' })
      .setIssuer('recipe-connector-service')
      .setIssuedAt()
      .setExpirationTime('10m')
      .sign(new TextEncoder().encode('a key the service never had, 32 bytes long'));
    const res = await svc.app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${forged}` } });
    expect(res.statusCode).toBe(401);
    expect(res.json().message).toBe('invalid token');
  });

  it('refuses an unsigned (alg none) token', async () => {
    const enc = (o: object) => Buffer.from(JSON.stringify(o)).toString('base64url');
    const token = `${enc({ alg: 'none', typ: 'JWT' })}.${enc({ organization_id: svc.org.organizationId, exp: 9999999999, iss: 'recipe-connector-service' })}.`;
    const res = await svc.app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${token}` } });
    expect(res.statusCode).toBe(401);
  });

  it('refuses a token after its 900 s lifetime, not before', async () => {
    svc.clock.set(new Date('2030-01-01T00:00:00Z'));
    const headers = await svc.auth();
    svc.clock.advance(899_000);
    expect((await svc.app.inject({ method: 'GET', url, headers })).statusCode).toBe(200);
    svc.clock.advance(2_000);
    const res = await svc.app.inject({ method: 'GET', url, headers });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toMatchObject({ message: 'token expired', errors: [{ error_code: 'unauthorized' }] });
  });

  it('keeps tokens valid when the app is rebuilt on the same database', async () => {
    // Same store, second app: the signing key comes from the database, not from memory.
    const { buildApp } = await import('../../src/service/app.js');
    const headers = await svc.auth();
    const second = await buildApp({ store: svc.store });
    const res = await second.inject({ method: 'GET', url, headers });
    expect(res.statusCode).toBe(200);
    await second.close();
  });
});
