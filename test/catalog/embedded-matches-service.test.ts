/**
 * The embedded catalog (read offline from schemas/connectors/) is the catalog the real service publishes in
 * its OpenAPI document: the same types, entities, actions, write flags, paging and params schemas. So the
 * static checks use exactly the schemas the service validates execute with.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { catalogFromOpenApi, embeddedCatalog, type ConnectorCatalog } from '../../src/catalog/index.js';
import { connectorTypes } from '../../src/service/connectors/registry.js';
import { createTestService, type TestService } from '../service/helpers.js';

let svc: TestService;
let live: ConnectorCatalog;
beforeAll(async () => {
  svc = await createTestService();
  const res = await svc.app.inject({ method: 'GET', url: '/api/v1/openapi.json' });
  expect(res.statusCode).toBe(200);
  live = catalogFromOpenApi(res.json(), 'http://service.test');
});
afterAll(async () => {
  await svc.close();
});

/** Strips what only one side has ($schema/title of the files; properties and association tables offline). */
function comparable(c: ConnectorCatalog) {
  return c.types.map((t) => ({
    name: t.name,
    definitionId: t.definitionId,
    entities: t.entities.map((e) => ({
      name: e.name,
      actions: e.actions.map((a) => {
        const { $schema: _s, $id: _i, ...params } = a.params as Record<string, unknown>;
        return { action: a.action, write: a.write, paging: a.paging, summary: a.summary, params };
      }),
    })),
  }));
}

describe('embedded connector catalog', () => {
  it('equals the catalog the service publishes in /api/v1/openapi.json', () => {
    expect(comparable(embeddedCatalog())).toEqual(comparable(live));
    expect(live.complete).toBe(true);
    expect(embeddedCatalog().complete).toBe(false);
  });

  it('uses the very schema objects the service validates with (same content as each action descriptor)', () => {
    for (const type of connectorTypes) {
      const t = embeddedCatalog().types.find((x) => x.definitionId === type.definition.id)!;
      for (const d of type.actions) {
        const a = t.entities.find((e) => e.name === d.entity)!.actions.find((x) => x.action === d.action)!;
        expect(a.params, `${d.entity}.${d.action}`).toEqual(d.paramsSchema);
        expect(a.write, `${d.entity}.${d.action}`).toBe(d.write);
      }
    }
  });

  it('says how each list action pages', () => {
    const pagingOf = (type: string, entity: string, action: string) =>
      embeddedCatalog()
        .types.find((t) => t.name === type)!
        .entities.find((e) => e.name === entity)!
        .actions.find((a) => a.action === action)!.paging;
    expect(pagingOf('CRM', 'deals', 'list')).toBe('after');
    expect(pagingOf('CRM', 'deals', 'context_store_search')).toBe('cursor');
    expect(pagingOf('CRM', 'deals', 'get')).toBeNull();
    expect(pagingOf('Files', 'files', 'list')).toBe('offset');
  });
});
