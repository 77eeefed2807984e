import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compileFilter, type SearchFilter } from '../../../src/service/connectors/crm/actions/search-filter.js';
import { searchStatements, type SortRule } from '../../../src/service/connectors/crm/actions/api-search.js';
import { crmConnector } from '../../../src/service/connectors/crm/index.js';
import { standardType } from '../../../src/service/connectors/crm/object-types.js';
import { compareValues, containsToken } from '../../../src/service/connectors/crm/search-semantics.js';
import { crmHarness, directContext, type CrmHarness } from './crm-helpers.js';

// api_search runs in SQL (issue 14): its plans seek the search indexes, its full-text rows follow every
// write, and its answers equal the rules of search-semantics.ts on random data.

let h: CrmHarness;
const contacts = standardType('contacts');

/** A small PRNG (mulberry32) so the random cases are the same on every run. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), a | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const WORDS = [
  'Ada',
  'ada',
  'ÄDA',
  'Zoë',
  'zoe',
  "O'Brien-Smith",
  'co12',
  '12',
  '012',
  ' 7 ',
  '7.0',
  '-3',
  'x y',
  '',
  'ß',
  'İstanbul',
];
const DATES = ['2026-01-01T00:00:00.000Z', '2026-01-02T12:30:00.000Z', '2025-12-31T23:59:59.999Z'];

beforeAll(async () => {
  h = await crmHarness();
  const rnd = prng(14);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)] as T;
  const people = Array.from({ length: 240 }, (_, i) => {
    const properties: Record<string, string> = { email: `p${i}@${pick(['acme', 'co12', 'globex'])}.example` };
    if (rnd() < 0.8) properties.firstname = pick(WORDS);
    if (rnd() < 0.8) properties.lastname = `${pick(WORDS)} ${pick(WORDS)}`.trim();
    if (rnd() < 0.7) properties.crm_owner_id = pick(['2001', '2002', ' 2001', '2001.0', 'none', 'NONE']);
    if (rnd() < 0.7) properties.company = pick(WORDS);
    return { properties, createdAt: pick(DATES) };
  });
  await crmConnector.loadFixtures!(directContext(h), { contacts: people });
});
afterAll(async () => h.close());

async function plan(filters: SearchFilter[], sort?: SortRule): Promise<string> {
  const groups = [filters.map((f, i) => compileFilter(contacts, f, `f${i}`))];
  const q = searchStatements(h.connectorId, contacts, groups, '', sort).page(25, 0);
  const rows = await sql<{ detail: string }>`EXPLAIN QUERY PLAN ${q}`.execute(h.svc.store.db);
  return rows.rows.map((r) => r.detail).join('\n');
}

describe('api_search query plans', () => {
  it('EQ and IN seek the property index', async () => {
    expect(await plan([{ propertyName: 'email', operator: 'EQ', value: 'p1@acme.example' }])).toMatch(
      /USING INDEX crm_search_contacts_email/,
    );
    expect(await plan([{ propertyName: 'lastname', operator: 'IN', values: ['ada', 'zoe'] }])).toMatch(
      /USING INDEX crm_search_contacts_lastname/,
    );
  });

  it('a date range sorted by that date reads its index in order (no sort of the matches)', async () => {
    const p = await plan(
      [
        { propertyName: 'createdate', operator: 'GTE', value: '2026-01-01' },
        { propertyName: 'createdate', operator: 'LT', value: '2026-01-08' },
      ],
      { propertyName: 'createdate', direction: 'DESCENDING' },
    );
    expect(p).toMatch(/USING INDEX crm_search_contacts_createdate/);
    expect(p).not.toMatch(/USE TEMP B-TREE FOR ORDER BY/);
  });

  it('CONTAINS_TOKEN finds its candidates in the token table', async () => {
    expect(await plan([{ propertyName: 'lastname', operator: 'CONTAINS_TOKEN', value: 'ada' }])).toMatch(/crm_fts/);
  });
});

/** Every contact as the reference sees it: id and properties (through list, all pages). */
async function everyone(): Promise<{ id: string; properties: Record<string, string | null> }[]> {
  const out: { id: string; properties: Record<string, string | null> }[] = [];
  let after: string | undefined;
  do {
    const page = await h.ok('contacts', 'list', {
      limit: 100,
      properties: 'email,firstname,lastname,crm_owner_id,company,createdate',
      ...(after && { after }),
    });
    out.push(...page.result);
    after = page.connector_metadata.end_cursor ?? undefined;
  } while (after);
  return out;
}

/** The reference: one filter on one contact, by the rules of search-semantics.ts. */
function matches(f: SearchFilter, props: Record<string, string | null>): boolean {
  const v = props[f.propertyName] ?? undefined;
  const present = v !== undefined && v !== '';
  const kind = f.propertyName === 'createdate' ? 'datetime' : undefined;
  const cmp = (g: unknown) => compareValues(kind, v as string, String(g));
  switch (f.operator) {
    case 'EQ':
      return present && cmp(f.value) === 0;
    case 'NEQ':
      return !present || cmp(f.value) !== 0;
    case 'LT':
      return present && cmp(f.value) < 0;
    case 'LTE':
      return present && cmp(f.value) <= 0;
    case 'GT':
      return present && cmp(f.value) > 0;
    case 'GTE':
      return present && cmp(f.value) >= 0;
    case 'BETWEEN':
      return present && cmp(f.value) >= 0 && cmp(f.highValue) <= 0;
    case 'IN':
      return present && (f.values ?? []).some((x) => cmp(x) === 0);
    case 'NOT_IN':
      return !present || !(f.values ?? []).some((x) => cmp(x) === 0);
    case 'HAS_PROPERTY':
      return present;
    case 'NOT_HAS_PROPERTY':
      return !present;
    case 'CONTAINS_TOKEN':
      return present && containsToken(v as string, String(f.value));
    case 'NOT_CONTAINS_TOKEN':
      return !(present && containsToken(v as string, String(f.value)));
  }
  throw new Error(f.operator);
}

describe('api_search equals its rules on random filters', () => {
  it('every operator on text, numeric-looking, unicode and date values', async () => {
    const all = await everyone();
    const rnd = prng(7);
    const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)] as T;
    const ops = [
      'EQ',
      'NEQ',
      'LT',
      'LTE',
      'GT',
      'GTE',
      'BETWEEN',
      'IN',
      'NOT_IN',
      'HAS_PROPERTY',
      'NOT_HAS_PROPERTY',
      'CONTAINS_TOKEN',
      'NOT_CONTAINS_TOKEN',
    ];
    const givens = [
      ...WORDS.filter((w) => w !== ''),
      '2001',
      '2001.00',
      'ada*',
      '*smith',
      'o*',
      '*',
      'p1@acme.example',
      '2026-01-02',
      String(Date.parse(DATES[0]!)),
    ];
    for (let n = 0; n < 150; n++) {
      const propertyName = pick(['firstname', 'lastname', 'crm_owner_id', 'company', 'email', 'createdate']);
      const operator = pick(ops);
      const f: SearchFilter = {
        propertyName,
        operator,
        value:
          propertyName === 'createdate' && rnd() < 0.7
            ? pick([...DATES, '2026-01-02', '2026-01-01T01:00:00+01:00'])
            : pick(givens),
        highValue: pick([...givens, ...DATES]),
        values: [pick(givens), pick(givens), pick(givens)],
      };
      const expected = all.filter((c) => matches(f, c.properties)).map((c) => c.id);
      const got: string[] = [];
      let after: string | undefined;
      do {
        const page = await h.ok('contacts', 'api_search', {
          filterGroups: [{ filters: [f] }],
          limit: 200,
          ...(after && { after }),
        });
        got.push(...page.result.map((r: { id: string }) => r.id));
        after = page.connector_metadata.end_cursor ?? undefined;
      } while (after);
      expect(got, JSON.stringify(f)).toEqual(expected);
    }
  });

  it('sorts numbers before text, each in order, records without the property last', async () => {
    const all = await everyone();
    for (const direction of ['ASCENDING', 'DESCENDING'] as const) {
      const page = await h.ok('contacts', 'api_search', {
        sorts: [{ propertyName: 'crm_owner_id', direction }],
        limit: 200,
        properties: ['crm_owner_id'],
      });
      const values = page.result.map((r: any) => r.properties.crm_owner_id as string | null);
      const present = values.filter((v: string | null) => v !== null && v !== '');
      // Missing last, whatever the direction.
      expect(values.slice(present.length).every((v: string | null) => v === null || v === '')).toBe(true);
      for (let i = 1; i < present.length; i++) {
        const c = compareValues(undefined, present[i - 1], present[i]);
        if (direction === 'ASCENDING') expect(c, `${present[i - 1]} then ${present[i]}`).toBeLessThanOrEqual(0);
        else expect(c, `${present[i - 1]} then ${present[i]}`).toBeGreaterThanOrEqual(0);
      }
      expect(page.connector_metadata.total).toBe(all.length);
    }
  });
});

describe('the token table follows the records', () => {
  it('an update changes what CONTAINS_TOKEN finds; deleting the connector removes its rows', async () => {
    const created = await h.ok('contacts', 'create', { properties: { email: 'token@x.example', lastname: 'Quixote' } });
    const find = async (value: string) =>
      (
        await h.ok('contacts', 'api_search', {
          filterGroups: [{ filters: [{ propertyName: 'lastname', operator: 'CONTAINS_TOKEN', value }] }],
        })
      ).result.map((r: { id: string }) => r.id);
    expect(await find('quixote')).toEqual([created.result.id]);
    await h.ok('contacts', 'update', { contactId: created.result.id, properties: { lastname: 'Panza' } });
    expect(await find('quixote')).toEqual([]);
    expect(await find('panz*')).toEqual([created.result.id]);

    const count = async () =>
      Number((await sql<{ n: number }>`SELECT count(*) AS n FROM crm_fts`.execute(h.svc.store.db)).rows[0]?.n);
    expect(await count()).toBeGreaterThan(0);
    const del = await h.svc.app.inject({
      method: 'DELETE',
      url: `/api/v1/integrations/connectors/${h.connectorId}`,
      headers: await h.svc.auth(),
    });
    expect(del.statusCode).toBe(202);
    expect(await count()).toBe(0);
  });
});
