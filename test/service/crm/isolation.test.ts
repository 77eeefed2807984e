import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { crmHarness, type CrmHarness } from './crm-helpers.js';
import { crmDb, type CrmTables } from '../../../src/service/connectors/crm/db.js';

let h: CrmHarness;
beforeEach(async () => {
  h = await crmHarness();
});
afterEach(async () => {
  await h.close();
});

describe('CRM data per connector', () => {
  it("keeps each connector's records, ids and emails apart", async () => {
    const a = (await h.ok('contacts', 'create', { properties: { email: 'same@x.example' } })).result.id;
    const otherId = await h.svc.createConnector('crm', { name: 'second crm' });
    const other = await h.svc.execute(otherId, {
      entity: 'contacts',
      action: 'create',
      params: { properties: { email: 'same@x.example' } },
    });
    expect(other.statusCode).toBe(200);
    // Ids are per connector: both start at 1.
    expect(other.json().result.id).toBe(a);
    const list = await h.svc.execute(otherId, { entity: 'contacts', action: 'list', params: {} });
    expect(list.json().result).toHaveLength(1);
    expect((await h.ok('contacts', 'list', {})).result).toHaveLength(1);
  });

  it("removes the connector's CRM data when the connector is deleted", async () => {
    const c = (await h.ok('contacts', 'create', { properties: { email: 'gone@x.example' } })).result.id;
    const co = (await h.ok('companies', 'create', { properties: { name: 'Gone' } })).result.id;
    await h.ok('associations', 'create', {
      associationCategory: 'PLATFORM_DEFINED',
      associationTypeId: 279,
      fromObjectType: 'contacts',
      fromObjectId: c,
      toObjectType: 'companies',
      toObjectId: co,
    });
    await h.ok('contacts', 'update', { contactId: c, properties: { firstname: 'G' } });
    const count = async (table: string) =>
      Number(
        (
          (await crmDb(h.svc.store.db)
            .selectFrom(table as keyof CrmTables)
            .select(h.svc.store.db.fn.countAll().as('n'))
            .where('connector_id', '=', h.connectorId)
            .executeTakeFirst()) as { n: number }
        ).n,
      );
    expect(await count('crm_records')).toBe(2);
    expect(await count('crm_associations')).toBe(2);
    expect(await count('crm_property_history')).toBeGreaterThan(0);
    const del = await h.svc.app.inject({
      method: 'DELETE',
      url: `/api/v1/integrations/connectors/${h.connectorId}`,
      headers: await h.svc.auth(),
    });
    expect(del.statusCode).toBe(202);
    for (const table of ['crm_records', 'crm_associations', 'crm_property_history', 'crm_schemas'])
      expect(await count(table), table).toBe(0);
  });
});
