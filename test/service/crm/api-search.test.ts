import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { crmConnector } from '../../../src/service/connectors/crm/index.js';
import { crmHarness, directContext, errorText, type CrmHarness } from './crm-helpers.js';

let h: CrmHarness;
const ids: Record<string, string> = {};

const people = [
  {
    key: 'ada',
    email: 'ada@acme.example',
    firstname: 'Ada',
    lastname: 'Lovelace',
    jobtitle: 'CTO',
    company: 'Acme Labs',
    lifecyclestage: 'customer',
  },
  {
    key: 'ben',
    email: 'ben@acme.example',
    firstname: 'Ben',
    lastname: 'Berg',
    jobtitle: 'Engineer',
    company: 'Acme Labs',
    lifecyclestage: 'lead',
  },
  {
    key: 'cho',
    email: 'cho@globex.example',
    firstname: 'Chloe',
    lastname: 'Costa',
    company: 'Globex',
    lifecyclestage: 'lead',
  },
  {
    key: 'dev',
    email: 'dev@globex.example',
    firstname: 'dev',
    lastname: 'Dubois',
    jobtitle: 'CEO',
    lifecyclestage: 'opportunity',
  },
  { key: 'eve', email: 'eve@initech.example', firstname: 'Eve', company: 'Initech', lifecyclestage: 'customer' },
];

beforeAll(async () => {
  h = await crmHarness();
  for (const p of people) {
    const { key, ...props } = p;
    ids[key] = (await h.ok('contacts', 'create', { properties: props })).result.id;
    h.svc.clock.advance(24 * 3600_000);
  }
  const amounts = ['100', '250.5', '1000', '99', '5000'];
  for (const [i, amount] of amounts.entries()) {
    ids[`deal${i}`] = (
      await h.ok('deals', 'create', {
        properties: {
          dealname: `Deal ${i}`,
          amount,
          closedate: `2026-0${i + 1}-15T00:00:00Z`,
          dealstage: i % 2 ? 'closedwon' : 'qualifiedtobuy',
        },
      })
    ).result.id;
  }
  await h.ok('deals', 'create', { properties: { dealname: 'No amount' } });
});
afterAll(async () => {
  await h.close();
});

const search = async (entity: string, params: Record<string, unknown>) => h.ok(entity, 'api_search', params);
const one = (propertyName: string, operator: string, extra: Record<string, unknown> = {}) => ({
  filterGroups: [{ filters: [{ propertyName, operator, ...extra }] }],
});
const idsOf = (out: any) => out.result.map((r: any) => r.id);

describe('api_search operators', () => {
  it('EQ is case-insensitive; NEQ includes records without the property', async () => {
    expect(idsOf(await search('contacts', one('firstname', 'EQ', { value: 'DEV' })))).toEqual([ids.dev]);
    expect(idsOf(await search('contacts', one('email', 'EQ', { value: 'Ada@ACME.example' })))).toEqual([ids.ada]);
    expect(idsOf(await search('contacts', one('jobtitle', 'NEQ', { value: 'cto' })))).toEqual([
      ids.ben,
      ids.cho,
      ids.dev,
      ids.eve,
    ]);
  });

  it('LT/LTE/GT/GTE compare numbers numerically and dates as instants', async () => {
    expect(idsOf(await search('deals', one('amount', 'GT', { value: '250.5' })))).toEqual([ids.deal2, ids.deal4]);
    expect(idsOf(await search('deals', one('amount', 'GTE', { value: 250.5 })))).toEqual([
      ids.deal1,
      ids.deal2,
      ids.deal4,
    ]);
    expect(idsOf(await search('deals', one('amount', 'LT', { value: '100' })))).toEqual([ids.deal3]);
    expect(idsOf(await search('deals', one('amount', 'LTE', { value: '100' })))).toEqual([ids.deal0, ids.deal3]);
    // Dates: ISO with an offset and epoch milliseconds name the same instants.
    expect(idsOf(await search('deals', one('closedate', 'LT', { value: '2026-02-15T01:00:00+01:00' })))).toEqual([
      ids.deal0,
    ]);
    expect(
      idsOf(await search('deals', one('closedate', 'GTE', { value: String(Date.parse('2026-04-15T00:00:00Z')) }))),
    ).toEqual([ids.deal3, ids.deal4]);
  });

  it('BETWEEN is inclusive and needs highValue', async () => {
    expect(idsOf(await search('deals', one('amount', 'BETWEEN', { value: '99', highValue: '250.5' })))).toEqual([
      ids.deal0,
      ids.deal1,
      ids.deal3,
    ]);
    const missing = await h.call('deals', 'api_search', one('amount', 'BETWEEN', { value: '1' }));
    expect(missing.status).toBe(400);
    expect(errorText(missing.body)).toContain('highValue');
  });

  it('IN / NOT_IN use values', async () => {
    expect(idsOf(await search('contacts', one('lifecyclestage', 'IN', { values: ['lead', 'opportunity'] })))).toEqual([
      ids.ben,
      ids.cho,
      ids.dev,
    ]);
    expect(
      idsOf(await search('contacts', one('lifecyclestage', 'NOT_IN', { values: ['lead', 'opportunity'] }))),
    ).toEqual([ids.ada, ids.eve]);
    expect((await h.call('contacts', 'api_search', one('lifecyclestage', 'IN', {}))).status).toBe(400);
  });

  it('HAS_PROPERTY / NOT_HAS_PROPERTY', async () => {
    expect(idsOf(await search('contacts', one('jobtitle', 'HAS_PROPERTY')))).toEqual([ids.ada, ids.ben, ids.dev]);
    expect(idsOf(await search('contacts', one('jobtitle', 'NOT_HAS_PROPERTY')))).toEqual([ids.cho, ids.eve]);
  });

  it('CONTAINS_TOKEN matches words and * wildcards; NOT_CONTAINS_TOKEN negates', async () => {
    expect(idsOf(await search('contacts', one('company', 'CONTAINS_TOKEN', { value: 'labs' })))).toEqual([
      ids.ada,
      ids.ben,
    ]);
    expect(idsOf(await search('contacts', one('email', 'CONTAINS_TOKEN', { value: '*@globex.example' })))).toEqual([
      ids.cho,
      ids.dev,
    ]);
    expect(idsOf(await search('contacts', one('company', 'CONTAINS_TOKEN', { value: 'ini*' })))).toEqual([ids.eve]);
    expect(idsOf(await search('contacts', one('company', 'NOT_CONTAINS_TOKEN', { value: 'acme' })))).toEqual([
      ids.cho,
      ids.dev,
      ids.eve,
    ]);
  });
});

describe('api_search associations.<type> pseudo-property', () => {
  it('matches records associated with the given ids (EQ, IN, NEQ), also next to other groups', async () => {
    const company = (await h.ok('companies', 'create', { properties: { name: 'Assoc Co' } })).result.id;
    for (const who of ['ada', 'cho']) {
      await h.ok('associations', 'create', {
        associationCategory: 'PLATFORM_DEFINED',
        associationTypeId: 279,
        fromObjectType: 'contacts',
        fromObjectId: ids[who],
        toObjectType: 'companies',
        toObjectId: company,
      });
    }
    expect(idsOf(await search('contacts', one('associations.company', 'EQ', { value: company })))).toEqual([
      ids.ada,
      ids.cho,
    ]);
    expect(
      idsOf(await search('contacts', one('associations.companies', 'IN', { values: [company, '999999'] }))),
    ).toEqual([ids.ada, ids.cho]);
    expect(idsOf(await search('contacts', one('associations.company', 'NEQ', { value: company })))).toEqual([
      ids.ben,
      ids.dev,
      ids.eve,
    ]);
    const either = await search('contacts', {
      filterGroups: [
        {
          filters: [
            { propertyName: 'associations.company', operator: 'EQ', value: company },
            { propertyName: 'lifecyclestage', operator: 'EQ', value: 'lead' },
          ],
        },
        { filters: [{ propertyName: 'jobtitle', operator: 'NOT_HAS_PROPERTY' }] },
      ],
    });
    expect(idsOf(either)).toEqual([ids.cho, ids.eve]);
    expect((await h.call('contacts', 'api_search', one('associations.planets', 'EQ', { value: '1' }))).status).toBe(
      400,
    );
    expect((await h.call('contacts', 'api_search', one('associations.company', 'GT', { value: '1' }))).status).toBe(
      400,
    );
    await h.ok('associations', 'delete', {
      fromObjectType: 'companies',
      fromObjectId: company,
      toObjectType: 'contacts',
      toObjectId: ids.ada,
    });
    await h.ok('associations', 'delete', {
      fromObjectType: 'companies',
      fromObjectId: company,
      toObjectType: 'contacts',
      toObjectId: ids.cho,
    });
  });
});

describe('api_search groups, query, sort, properties, paging', () => {
  it('ANDs filters inside a group and ORs groups', async () => {
    const out = await search('contacts', {
      filterGroups: [
        {
          filters: [
            { propertyName: 'lifecyclestage', operator: 'EQ', value: 'lead' },
            { propertyName: 'company', operator: 'EQ', value: 'globex' },
          ],
        },
        { filters: [{ propertyName: 'firstname', operator: 'EQ', value: 'eve' }] },
      ],
    });
    expect(idsOf(out)).toEqual([ids.cho, ids.eve]);
    expect(out.connector_metadata.total).toBe(2);
  });

  it('searches query text in the searchable properties, case-insensitively', async () => {
    expect(idsOf(await search('contacts', { query: 'GLOBEX' }))).toEqual([ids.cho, ids.dev]);
    expect(idsOf(await search('contacts', { query: 'lovelace' }))).toEqual([ids.ada]);
    // jobtitle is not a searchable property of contacts.
    expect(idsOf(await search('contacts', { query: 'engineer' }))).toEqual([]);
  });

  it('sorts by one property in either direction; records without it go last', async () => {
    const asc = await search('deals', { sorts: [{ propertyName: 'amount', direction: 'ASCENDING' }] });
    expect(asc.result.map((r: any) => r.properties.amount ?? null)).toEqual([
      '99',
      '100',
      '250.5',
      '1000',
      '5000',
      null,
    ]);
    const desc = await search('deals', { sorts: [{ propertyName: 'amount', direction: 'DESCENDING' }] });
    expect(desc.result.map((r: any) => r.properties.amount ?? null)).toEqual([
      '5000',
      '1000',
      '250.5',
      '100',
      '99',
      null,
    ]);
    expect(
      (await h.call('deals', 'api_search', { sorts: [{ propertyName: 'amount' }, { propertyName: 'dealname' }] }))
        .status,
    ).toBe(400);
  });

  it('returns the requested properties plus the bookkeeping trio', async () => {
    const out = await search('contacts', {
      ...one('firstname', 'EQ', { value: 'ada' }),
      properties: ['jobtitle', 'phone'],
    });
    expect(Object.keys(out.result[0].properties).sort()).toEqual([
      'createdate',
      'hs_object_id',
      'jobtitle',
      'lastmodifieddate',
      'phone',
    ]);
    expect(out.result[0].properties.phone).toBeNull();
  });

  it('pages with after as an offset and reports total', async () => {
    const first = await search('contacts', { limit: 2 });
    expect(first.connector_metadata).toMatchObject({
      total: 5,
      has_next_page: true,
      end_cursor: '2',
      next_cursor: '2',
    });
    const second = await search('contacts', { limit: 2, after: '2' });
    const third = await search('contacts', { limit: 2, after: '4' });
    expect([...idsOf(first), ...idsOf(second), ...idsOf(third)]).toEqual(Object.values(ids).slice(0, 5));
    expect(third.connector_metadata.has_next_page).toBe(false);
  });

  it('is not an action of the activity entities', async () => {
    const notes = await h.call('notes', 'api_search', {});
    expect(notes.status).toBe(400);
    expect(notes.body.errors[0].field).toBe('action');
  });
});

describe('api_search limits', () => {
  const filter = { propertyName: 'email', operator: 'HAS_PROPERTY' };
  it('allows 6 groups and 6 filters per group, rejects 7 of either and more than 18 filters in all', async () => {
    const groups = (n: number, per: number) => ({
      filterGroups: Array.from({ length: n }, () => ({ filters: Array.from({ length: per }, () => filter) })),
    });
    expect((await h.call('contacts', 'api_search', groups(6, 3))).status).toBe(200);
    expect((await h.call('contacts', 'api_search', groups(3, 6))).status).toBe(200);
    expect((await h.call('contacts', 'api_search', groups(7, 1))).status).toBe(400);
    expect((await h.call('contacts', 'api_search', groups(1, 7))).status).toBe(400);
    const total = await h.call('contacts', 'api_search', groups(4, 5));
    expect(total.status).toBe(400);
    expect(errorText(total.body)).toContain('18');
  });

  it('limits query to 3000 characters and limit to 200 (default 25)', async () => {
    expect((await h.call('contacts', 'api_search', { query: 'x'.repeat(3000) })).status).toBe(200);
    expect((await h.call('contacts', 'api_search', { query: 'x'.repeat(3001) })).status).toBe(400);
    expect((await h.call('contacts', 'api_search', { limit: 200 })).status).toBe(200);
    expect((await h.call('contacts', 'api_search', { limit: 201 })).status).toBe(400);
    const cursor = await h.call('contacts', 'api_search', { cursor: '5' });
    expect(cursor.status).toBe(400);
    expect(cursor.body.message).toContain('after');
    expect((await h.call('contacts', 'api_search', one('email', 'LIKE', { value: 'x' }))).status).toBe(400);
  });
});

describe('api_search 10,000 result cap', () => {
  it('pages up to 10,000 results, rejects after beyond, still counts total', async () => {
    const big = await crmHarness();
    try {
      const companies = Array.from({ length: 10_010 }, (_, i) => ({ properties: { name: `Company ${i}` } }));
      await crmConnector.loadFixtures!(directContext(big), {
        companies,
        contacts: [{ properties: { email: 'gone@x.example' }, archived: true }],
      });
      const last = await big.ok('companies', 'api_search', { after: '9990', limit: 25 });
      expect(last.result).toHaveLength(10);
      expect(last.connector_metadata).toMatchObject({ total: 10_010, has_next_page: false });
      const beyond = await big.call('companies', 'api_search', { after: '10000' });
      expect(beyond.status).toBe(400);
      expect(errorText(beyond.body)).toContain('10000');
      // The archived contact from the fixtures is never a search result.
      const contacts = await big.ok('contacts', 'api_search', {});
      expect(contacts.connector_metadata.total).toBe(0);
    } finally {
      await big.close();
    }
  });
});
