import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { crmHarness, type CrmHarness } from './crm-helpers.js';

let h: CrmHarness;
beforeEach(async () => {
  h = await crmHarness();
});
afterEach(async () => {
  await h.close();
});

describe('concurrent writers', () => {
  it('8 clients creating and updating at once lose nothing and never share an id', async () => {
    const company = (await h.ok('companies', 'create', { properties: { name: 'Shared' } })).result.id;
    const perClient = 12;
    const client = async (c: number) => {
      const mine: string[] = [];
      for (let i = 0; i < perClient; i++) {
        // Interleave kinds so the writers contend for the same id sequence.
        const contact = await h.ok('contacts', 'create', {
          properties: { email: `c${c}-${i}@load.example`, firstname: `C${c}` },
        });
        mine.push(contact.result.id);
        await h.ok('notes', 'create', {
          properties: { hs_note_body: `note ${c}-${i}` },
          associations: [
            { to: { id: company }, types: [{ associationCategory: 'PLATFORM_DEFINED', associationTypeId: 190 }] },
          ],
        });
        await h.ok('contacts', 'update', { contactId: contact.result.id, properties: { lastname: `L${c}-${i}` } });
        await h.ok('companies', 'update', { companyId: company, properties: { description: `touched by ${c}-${i}` } });
      }
      return mine;
    };
    const created = (await Promise.all(Array.from({ length: 8 }, (_, c) => client(c)))).flat();
    expect(new Set(created).size).toBe(8 * perClient);

    const contacts: any[] = [];
    let after: string | undefined;
    for (;;) {
      const page = await h.ok('contacts', 'list', {
        limit: 100,
        properties: 'email,lastname',
        ...(after && { after }),
      });
      contacts.push(...page.result);
      if (!page.connector_metadata.has_next_page) break;
      after = page.connector_metadata.end_cursor;
    }
    expect(contacts).toHaveLength(8 * perClient);
    for (const c of contacts) {
      const [, who, i] = /^c(\d+)-(\d+)@/.exec(c.properties.email)!;
      expect(c.properties.lastname).toBe(`L${who}-${i}`);
    }
    const notes = await h.ok('associations', 'list', {
      fromObjectType: 'companies',
      fromObjectId: company,
      toObjectType: 'notes',
    });
    expect(notes.result.results).toHaveLength(8 * perClient);
    const allIds = [...created, ...notes.result.results.map((r: any) => String(r.toObjectId)), company];
    expect(new Set(allIds).size).toBe(allIds.length);
    const history = await h.ok('companies', 'get', { companyId: company, propertiesWithHistory: 'description' });
    expect(history.result.propertiesWithHistory.description).toHaveLength(8 * perClient);
  });

  it('two clients racing for the same email: exactly one wins, the other gets 409', async () => {
    const results = await Promise.all(
      Array.from({ length: 8 }, () => h.call('contacts', 'create', { properties: { email: 'race@load.example' } })),
    );
    expect(results.filter((r) => r.status === 200)).toHaveLength(1);
    expect(results.filter((r) => r.status === 409)).toHaveLength(7);
    expect((await h.ok('contacts', 'list', {})).result).toHaveLength(1);
  });
});
