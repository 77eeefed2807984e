import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { crmConnector } from '../../../src/service/connectors/crm/index.js';
import { seedCounts } from '../../../src/service/connectors/crm/seed.js';
import { crmHarness, directContext, type CrmHarness } from './crm-helpers.js';

let h: CrmHarness;
beforeEach(async () => {
  h = await crmHarness();
});
afterEach(async () => {
  await h.close();
});

async function everything(x: CrmHarness, entity: string): Promise<any[]> {
  const out: any[] = [];
  let after: string | undefined;
  for (;;) {
    const page = await x.ok(entity, 'list', {
      limit: 100,
      ...(after && { after }),
      properties: 'hs_object_id,dealstage,closedate,hs_lastmodifieddate,email,hs_ticket_priority,crm_owner_id',
    });
    out.push(...page.result);
    if (!page.connector_metadata.has_next_page) return out;
    after = page.connector_metadata.end_cursor;
  }
}

describe('seedDemo', () => {
  it('makes about 5,000 records at the default size of 2,000 contacts', () => {
    const counts = seedCounts(2000);
    const total = Object.values(counts).reduce((a, b) => a + b, 0);
    expect(total).toBeGreaterThanOrEqual(4500);
    expect(total).toBeLessThanOrEqual(5500);
    expect(counts.contacts).toBe(2000);
  });

  it('is deterministic for a seed and fills every entity, the custom object and associations', async () => {
    await crmConnector.seedDemo!(directContext(h), { size: 200, seed: 7 });
    const counts = seedCounts(200);
    const other = await crmHarness();
    try {
      await crmConnector.seedDemo!(directContext(other), { size: 200, seed: 7 });
      for (const entity of [
        'contacts',
        'companies',
        'deals',
        'tickets',
        'notes',
        'calls',
        'emails',
        'meetings',
        'tasks',
      ]) {
        const a = await everything(h, entity);
        const b = await everything(other, entity);
        expect(a.length, entity).toBe(counts[entity as keyof typeof counts]);
        expect(
          a.map((r) => r.properties),
          entity,
        ).toEqual(b.map((r) => r.properties));
      }
    } finally {
      await other.close();
    }
    const deals = await everything(h, 'deals');
    const stages = new Set(deals.map((d) => d.properties.dealstage));
    expect(stages.size).toBe(7);
    const now = Date.parse('2026-03-01T12:00:00.000Z');
    const stale = deals.filter(
      (d) =>
        !/closed/.test(d.properties.dealstage) && now - Date.parse(d.properties.hs_lastmodifieddate) > 60 * 86_400_000,
    );
    expect(stale.length).toBeGreaterThan(0);
    expect(deals.some((d) => Date.parse(d.properties.closedate) > now)).toBe(true);
    expect(deals.some((d) => Date.parse(d.properties.closedate) < now)).toBe(true);
    const tickets = await everything(h, 'tickets');
    expect(tickets.some((t) => t.properties.crm_owner_id === null)).toBe(true);
    expect(new Set(tickets.map((t) => t.properties.hs_ticket_priority)).size).toBeGreaterThanOrEqual(3);
    const contacts = await everything(h, 'contacts');
    expect(new Set(contacts.map((c) => c.properties.email.toLowerCase())).size).toBe(contacts.length);

    const withCompany = await h.ok('contacts', 'get', { contactId: contacts[0].id, associations: 'companies' });
    expect(withCompany.result.associations.companies.results.length).toBe(2);
    const schemas = await h.ok('schemas', 'list', {});
    expect(schemas.result.map((s: any) => s.name)).toEqual(['vehicles']);
    const vehicles = await h.ok('objects', 'list', {
      objectType: schemas.result[0].objectTypeId,
      properties: 'vin,make',
      associations: 'contacts',
    });
    expect(vehicles.result.length).toBe(counts.vehicles);
    expect(vehicles.result[0].properties.vin).toMatch(/^VIN\d{10}$/);
    expect(vehicles.result[0].associations.contacts.results).toHaveLength(1);
  });

  it('reserves its id block first, so writes during or after a seed take ids after it', async () => {
    const counts = seedCounts(40);
    const total = Object.values(counts).reduce((a, b) => a + b, 0);
    const seeding = crmConnector.seedDemo!(directContext(h), { size: 40, seed: 9 });
    const during = h.ok('contacts', 'create', { properties: { email: 'during@seed.example' } });
    await seeding;
    const ids = [
      Number((await during).result.id),
      Number((await h.ok('contacts', 'create', { properties: { email: 'after@seed.example' } })).result.id),
    ];
    expect(ids.sort((a, b) => a - b)).toEqual([total + 1, total + 2]);
  });

  it('restores the page cache size it raises for the load', async () => {
    const { sql } = await import('kysely');
    const size = async () =>
      (await sql<{ cache_size: number }>`pragma cache_size`.execute(h.svc.store.db)).rows[0]!.cache_size;
    const before = await size();
    await crmConnector.seedDemo!(directContext(h), { size: 10, seed: 1 });
    expect(await size()).toBe(before);
  });

  it('gives different data for a different seed', async () => {
    await crmConnector.seedDemo!(directContext(h), { size: 50, seed: 1 });
    const other = await crmHarness();
    try {
      await crmConnector.seedDemo!(directContext(other), { size: 50, seed: 2 });
      const a = (await everything(h, 'contacts')).map((r) => r.properties.email);
      const b = (await everything(other, 'contacts')).map((r) => r.properties.email);
      expect(a).not.toEqual(b);
    } finally {
      await other.close();
    }
  });
});
