import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { crmConnector } from '../../../src/service/connectors/crm/index.js';
import { ServiceError } from '../../../src/service/core/errors.js';
import { crmHarness, directContext, errorText, type CrmHarness } from './crm-helpers.js';

let h: CrmHarness;
beforeEach(async () => {
  h = await crmHarness();
});
afterEach(async () => {
  await h.close();
});

const dataset = {
  schemas: [
    {
      name: 'cars',
      labels: { singular: 'Car', plural: 'Cars' },
      properties: [
        { name: 'plate', label: 'Plate', hasUniqueValue: true },
        {
          name: 'color',
          type: 'enumeration',
          options: [
            { label: 'Red', value: 'red' },
            { label: 'Blue', value: 'blue' },
          ],
        },
        { name: 'bought', type: 'date' },
      ],
      requiredProperties: ['plate'],
      searchableProperties: ['plate'],
      primaryDisplayProperty: 'plate',
    },
  ],
  companies: [
    { id: '500', properties: { name: 'Fixture Co', domain: 'fixture.example' }, createdAt: '2025-01-01T00:00:00Z' },
  ],
  contacts: [
    { id: '501', properties: { email: 'one@fixture.example', firstname: 'One', hs_lead_status: 'NEW' } },
    { properties: { email: 'two@fixture.example' } },
  ],
  notes: [
    { id: '510', properties: { hs_note_body: 'archived note' }, archived: true, archivedAt: '2025-06-01T00:00:00Z' },
  ],
  objects: {
    cars: [
      { id: '600', properties: { plate: 'AB-123', color: 'red', bought: '2024-05-01' } },
      { properties: { plate: 'CD-456' } },
    ],
  },
  associations: [
    { from: { type: 'contacts', id: '501' }, to: { type: 'companies', id: '500' } },
    { from: { type: 'contacts', id: '501' }, to: { type: 'companies', id: '500' }, typeId: 1 },
    { from: { type: 'cars', id: '600' }, to: { type: 'contacts', id: '501' } },
  ],
};

describe('loadFixtures', () => {
  it('loads records, schemas, custom objects and associations with the given ids', async () => {
    const notified: { entity: string; ids: readonly string[] }[] = [];
    await crmConnector.loadFixtures!(directContext(h, notified), structuredClone(dataset));
    const company = await h.ok('companies', 'get', { companyId: '500', associations: 'contacts' });
    expect(company.result.createdAt).toBe('2025-01-01T00:00:00.000Z');
    expect(company.result.associations.contacts.results.map((r: any) => r.type)).toEqual([
      'company_to_contact',
      'company_to_contact_unlabeled',
    ]);
    const contacts = await h.ok('contacts', 'list', { properties: 'email,hs_lead_status' });
    expect(contacts.result.map((c: any) => c.id)).toEqual(['501', '601']);
    expect(contacts.result[0].properties.hs_lead_status).toBeUndefined(); // not a known property: not returned
    expect((await h.ok('notes', 'get', { noteId: '510', archived: true })).result.archivedAt).toBe(
      '2025-06-01T00:00:00.000Z',
    );
    expect(notified.map((n) => n.entity).sort()).toEqual(['companies', 'contacts', 'notes']);
    // A new record continues after the highest id.
    const created = await h.ok('contacts', 'create', { properties: { email: 'three@fixture.example' } });
    expect(created.result.id).toBe('603');
  });

  it('fails whole with the path of the first bad item and writes nothing', async () => {
    const bad = structuredClone(dataset) as any;
    bad.contacts[1].properties.email = 'ONE@fixture.example';
    await expect(crmConnector.loadFixtures!(directContext(h), bad)).rejects.toThrow(/contacts\[1\]\.properties\.email/);
    const badEnum = structuredClone(dataset) as any;
    badEnum.objects.cars[0].properties.color = 'green';
    const err = await crmConnector.loadFixtures!(directContext(h), badEnum).catch((e) => e);
    expect(err).toBeInstanceOf(ServiceError);
    expect(err.items[0].field).toBe('objects.cars[0].properties.color');
    const badShape = await crmConnector.loadFixtures!(directContext(h), { contacts: [{ props: {} }] }).catch((e) => e);
    expect(badShape).toBeInstanceOf(ServiceError);
    expect(errorText(badShape.toBody())).toContain('data.contacts.0');
    const badAssoc = structuredClone(dataset) as any;
    badAssoc.associations[0].to.id = '999';
    await expect(crmConnector.loadFixtures!(directContext(h), badAssoc)).rejects.toThrow(/associations\[0\]\.to\.id/);
    expect((await h.ok('contacts', 'list', {})).result).toEqual([]);
    expect((await h.ok('companies', 'list', {})).result).toEqual([]);
    expect((await h.ok('schemas', 'list', {})).result).toEqual([]);
  });
});

describe('schemas and objects', () => {
  beforeEach(async () => {
    await crmConnector.loadFixtures!(directContext(h), structuredClone(dataset));
  });

  it('lists and gets schemas by objectTypeId and fullyQualifiedName', async () => {
    const list = await h.ok('schemas', 'list', {});
    expect(list.result).toHaveLength(1);
    const s = list.result[0];
    expect(s).toMatchObject({
      id: '1',
      objectTypeId: '2-1',
      name: 'cars',
      labels: { singular: 'Car', plural: 'Cars' },
      requiredProperties: ['plate'],
      searchableProperties: ['plate'],
      primaryDisplayProperty: 'plate',
      archived: false,
      metaType: 'PORTAL_SPECIFIC',
      restorable: true,
      allowsSensitiveProperties: false,
    });
    expect(s.fullyQualifiedName).toMatch(/^p\d+_cars$/);
    for (const key of [
      'secondaryDisplayProperties',
      'description',
      'createdByUserId',
      'updatedByUserId',
      'properties',
      'associations',
      'createdAt',
      'updatedAt',
    ])
      expect(s).toHaveProperty(key);
    expect(s.properties.map((p: any) => p.name)).toEqual(['plate', 'color', 'bought']);
    expect((await h.ok('schemas', 'get', { objectType: '2-1' })).result.name).toBe('cars');
    expect((await h.ok('schemas', 'get', { objectType: s.fullyQualifiedName })).result.objectTypeId).toBe('2-1');
    expect((await h.call('schemas', 'get', { objectType: '2-99' })).status).toBe(404);
    expect((await h.ok('schemas', 'list', { archived: true })).result).toEqual([]);
  });

  it('lists and gets custom object records, by id and by a unique property', async () => {
    const list = await h.ok('objects', 'list', { objectType: '2-1', properties: 'plate,color,bought' });
    expect(list.result.map((r: any) => r.properties.plate)).toEqual(['AB-123', 'CD-456']);
    expect(list.result[0].properties.bought).toBe('2024-05-01T00:00:00.000Z');
    expect(list.result[1].properties.color).toBeNull();
    const byFqn = await h.ok('objects', 'get', {
      objectType: (await h.ok('schemas', 'get', { objectType: '2-1' })).result.fullyQualifiedName,
      objectId: '600',
      associations: 'contacts',
    });
    expect(byFqn.result.associations.contacts.results).toEqual([{ id: '501', type: 'cars_to_contact' }]);
    const byPlate = await h.ok('objects', 'get', { objectType: '2-1', objectId: 'ab-123', idProperty: 'plate' });
    expect(byPlate.result.id).toBe('600');
    expect((await h.call('objects', 'get', { objectType: '2-1', objectId: 'red', idProperty: 'color' })).status).toBe(
      400,
    );
    expect((await h.call('objects', 'get', { objectType: '2-1', objectId: '501' })).status).toBe(404);
    expect((await h.call('objects', 'list', { objectType: '2-42' })).status).toBe(404);
    const assoc = await h.ok('associations', 'list', {
      fromObjectType: 'contacts',
      fromObjectId: '501',
      toObjectType: '2-1',
    });
    expect(assoc.result.results[0].toObjectId).toBe(600);
    expect((await h.call('objects', 'list', { objectType: '2-1', cursor: 'x' })).body.message).toContain('after');
  });
});
