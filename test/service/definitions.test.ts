import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { connectorTypes } from '../../src/service/connectors/registry.js';
import { createTestService, type TestService } from './helpers.js';

let svc: TestService;
beforeEach(async () => {
  svc = await createTestService();
});
afterEach(async () => {
  await svc.close();
});

const url = '/api/v1/integrations/definitions/sources';

describe('definitions catalog', () => {
  it('lists every connector type with the spec fields', async () => {
    const res = await svc.app.inject({ method: 'GET', url, headers: await svc.auth() });
    expect(res.statusCode).toBe(200);
    const defs = res.json().definitions;
    expect(defs).toHaveLength(connectorTypes.length);
    const crm = defs.find((d: { name: string }) => d.name === 'CRM');
    expect(crm).toEqual({
      sourceDefinitionId: expect.stringMatching(/^[0-9a-f-]{36}$/),
      name: 'CRM',
      iconUrl: expect.stringMatching(/^https:\/\//),
      supportLevel: 'certified',
    });
  });

  it('filters by a case-insensitive substring of the name', async () => {
    const headers = await svc.auth();
    const res = await svc.app.inject({ method: 'GET', url: `${url}?name=cR`, headers });
    expect(res.json().definitions.map((d: { name: string }) => d.name)).toEqual(['CRM']);
    const none = await svc.app.inject({ method: 'GET', url: `${url}?name=zzz`, headers });
    expect(none.json()).toEqual({ definitions: [] });
  });

  it('gets one definition by id, and 404 for an unknown id', async () => {
    const headers = await svc.auth();
    const id = connectorTypes[0]!.definition.id;
    const res = await svc.app.inject({ method: 'GET', url: `${url}/${id}`, headers });
    expect(res.statusCode).toBe(200);
    expect(res.json().sourceDefinitionId).toBe(id);
    const missing = await svc.app.inject({
      method: 'GET',
      url: `${url}/00000000-0000-4000-8000-000000000000`,
      headers,
    });
    expect(missing.statusCode).toBe(404);
    expect(missing.json().errors[0]).toMatchObject({ error_code: 'not_found', field: 'path.id' });
  });

  it('rejects unknown query parameters', async () => {
    const res = await svc.app.inject({ method: 'GET', url: `${url}?nam=x`, headers: await svc.auth() });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors[0].field).toBe('query.nam');
  });
});
