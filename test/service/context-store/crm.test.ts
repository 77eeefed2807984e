import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestService, type TestService } from '../helpers.js';
import { inspect, waitFor } from './support/harness.js';

let svc: TestService;
let id: string;
const contacts: string[] = [];
let companyId: string;

async function ok(entity: string, action: string, params: Record<string, unknown>) {
  const res = await svc.execute(id, { entity, action, params });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}

async function searchContacts(params: Record<string, unknown>) {
  return ok('contacts', 'context_store_search', params);
}

beforeAll(async () => {
  svc = await createTestService({ contextStore: { flushIntervalMs: 10 } });
  id = await svc.createConnector('crm');
  companyId = (await ok('companies', 'create', { properties: { name: 'Fjord Analytics', domain: 'fjord.example' } }))
    .result.id;
  for (const [first, last, email] of [
    ['Teodor', 'Hansen', 'teodor@fjord.example'],
    ['Ingrid', 'Berg', 'ingrid@berg.example'],
    ['Teo', 'Nilsen-Dahl', 'teo@nilsen.example'],
  ] as const) {
    contacts.push(
      (await ok('contacts', 'create', { properties: { firstname: first, lastname: last, email } })).result.id,
    );
  }
  await ok('associations', 'create', {
    fromObjectType: 'contacts',
    fromObjectId: contacts[0],
    toObjectType: 'companies',
    toObjectId: companyId,
    associationCategory: 'PLATFORM_DEFINED',
    associationTypeId: 279,
  });
  await waitFor('CRM context store Ready', async () => (await inspect(svc, id)).context_store_status === 'Ready');
});
afterAll(async () => svc.close());

describe('context_store_search on the CRM connector', () => {
  it('reports the nine entities in inspect and searches contacts with the filter language', async () => {
    const report = await inspect(svc, id);
    expect(report.context_store_readiness.configured_cache_entities.map((e: any) => e.entity)).toEqual([
      'contacts',
      'companies',
      'deals',
      'tickets',
      'notes',
      'calls',
      'emails',
      'meetings',
      'tasks',
    ]);
    const contactsEntity = report.context_store_readiness.configured_cache_entities[0];
    expect(contactsEntity).toMatchObject({ status: 'Ready', ready_for_search: true, entity_count: 3 });

    const fuzzy = await searchContacts({
      query: { filter: { fuzzy: { 'properties.firstname': 'teo' } }, sort: [{ 'properties.lastname': 'asc' }] },
    });
    expect(fuzzy.result.data.map((d: any) => d.properties.email)).toEqual([
      'teodor@fjord.example',
      'teo@nilsen.example',
    ]);
    expect(fuzzy.result.meta.has_more).toBe(false);
    expect(fuzzy.connector_metadata).toEqual({ has_next_page: false, end_cursor: null });
  });

  it('keeps association arrays in step: contains on companies, after an association is created', async () => {
    await waitFor(
      'association indexed',
      async () => {
        const res = await searchContacts({
          query: { filter: { contains: { companies: companyId } } },
          fields: ['id', 'companies'],
        });
        return res.result.data.length === 1 ? res : null;
      },
      5000,
    );
    const res = await searchContacts({
      query: { filter: { contains: { companies: companyId } } },
      fields: ['id', 'companies'],
    });
    expect(res.result.data).toEqual([{ id: contacts[0], companies: [companyId] }]);
    await ok('associations', 'create', {
      fromObjectType: 'contacts',
      fromObjectId: contacts[1],
      toObjectType: 'companies',
      toObjectId: companyId,
      associationCategory: 'PLATFORM_DEFINED',
      associationTypeId: 279,
    });
    await waitFor(
      'second association indexed',
      async () =>
        (await searchContacts({ query: { filter: { contains: { companies: companyId } } } })).result.data.length === 2,
      5000,
    );
  });

  it('sees updates within the lag bound and refuses unknown fields with a path', async () => {
    await ok('contacts', 'update', { contactId: contacts[1], properties: { lastname: 'Bergström' } });
    await waitFor(
      'update indexed',
      async () =>
        (await searchContacts({ query: { filter: { fuzzy: { 'properties.lastname': 'bergstrom' } } } })).result.data
          .length === 1,
      5000,
    );
    const bad = await svc.execute(id, {
      entity: 'contacts',
      action: 'context_store_search',
      params: { query: { filter: { eq: { 'properties.phone': '1' } } } },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors[0].field).toBe('params.query.filter.eq["properties.phone"]');
  });
});
