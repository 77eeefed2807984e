import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { crmConnector } from '../../../src/service/connectors/crm/index.js';
import { crmHarness, directContext, type CrmHarness } from './crm-helpers.js';

let h: CrmHarness;
beforeEach(async () => {
  h = await crmHarness();
});
afterEach(async () => {
  await h.close();
});

const source = crmConnector.contextStore!;

describe('CRM context store source', () => {
  it('names the nine entities with the spec fields', () => {
    expect([...source.entities].sort()).toEqual([
      'calls',
      'companies',
      'contacts',
      'deals',
      'emails',
      'meetings',
      'notes',
      'tasks',
      'tickets',
    ]);
    expect(source.arrayFields('deals')).toEqual(['companies', 'contacts', 'line_items']);
    expect(source.arrayFields('contacts')).toEqual(['companies']);
    expect(source.arrayFields('notes')).toEqual([]);
    expect(source.propertyFields('companies')).toEqual([
      'createdate',
      'domain',
      'hs_lastmodifieddate',
      'hs_object_id',
      'crm_owner_id',
      'name',
    ]);
  });

  it('scans in id order, reads by ids (archived included) and counts', async () => {
    const company = (await h.ok('companies', 'create', { properties: { name: 'A' } })).result.id;
    const contacts: string[] = [];
    for (let i = 0; i < 5; i++) {
      contacts.push(
        (await h.ok('contacts', 'create', { properties: { email: `s${i}@x.example`, firstname: `S${i}` } })).result.id,
      );
    }
    await h.ok('associations', 'create', {
      associationCategory: 'PLATFORM_DEFINED',
      associationTypeId: 1,
      fromObjectType: 'contacts',
      fromObjectId: contacts[0],
      toObjectType: 'companies',
      toObjectId: company,
    });
    const ctx = directContext(h);
    const first = await source.scan(ctx, 'contacts', null, 3);
    expect(first.docs.map((d) => d.id)).toEqual(contacts.slice(0, 3));
    expect(first.next).toBe(contacts[2]);
    const second = await source.scan(ctx, 'contacts', first.next, 3);
    expect(second.docs.map((d) => d.id)).toEqual(contacts.slice(3));
    expect(second.next).toBeNull();
    const doc = first.docs[0]!;
    expect(doc.companies).toEqual([company]);
    expect(doc.properties).toMatchObject({
      email: 's0@x.example',
      firstname: 'S0',
      associatedcompanyid: company,
      lastname: null,
    });
    expect(Object.keys(doc.properties).sort()).toEqual([...source.propertyFields('contacts')].sort());
    expect(await source.count(ctx, 'contacts')).toBe(5);

    const note = (await h.ok('notes', 'create', { properties: { hs_note_body: 'n' } })).result.id;
    await h.ok('notes', 'delete', { noteId: note });
    const [read] = await source.read(ctx, 'notes', [note, 'nope', contacts[0]!]);
    expect(read).toMatchObject({ id: note, archived: true });
    expect(await source.read(ctx, 'notes', [contacts[0]!])).toEqual([]);
  });

  it('is told about every committed write, both ends of associations included', async () => {
    const events: { entity: string; ids: readonly string[] }[] = [];
    h.svc.app.service.onChange((e) => events.push({ entity: e.entity, ids: e.ids }));
    const contact = (await h.ok('contacts', 'create', { properties: { email: 'n@x.example' } })).result.id;
    const company = (await h.ok('companies', 'create', { properties: { name: 'N' } })).result.id;
    events.length = 0;
    await h.ok('associations', 'create', {
      associationCategory: 'PLATFORM_DEFINED',
      associationTypeId: 279,
      fromObjectType: 'contacts',
      fromObjectId: contact,
      toObjectType: 'companies',
      toObjectId: company,
    });
    expect(events).toEqual(
      expect.arrayContaining([
        { entity: 'contacts', ids: [contact] },
        { entity: 'companies', ids: [company] },
      ]),
    );
    events.length = 0;
    await h.call('contacts', 'create', { properties: { email: 'n@x.example' } });
    expect(events).toEqual([]);
  });
});
