import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestService } from '../helpers.js';
import { createPeopleService, search, searchIds, waitForStatus } from './support/harness.js';
import { insertPeople } from './support/people-connector.js';

let svc: TestService;
let id: string;

/** The data set: ids are 1..n in this order. */
const PEOPLE = [
  {
    properties: { firstname: 'Teodor', lastname: "O'Brien-Smith", email: 'teo@alpha.io', city: 'Oslo', amount: '900' },
    companies: ['10', '11'],
    addresses: [
      { city: 'Oslo', state: 'NO' },
      { city: 'Fresno', state: 'CA' },
    ],
  },
  {
    properties: { firstname: 'Anna', lastname: 'Løvik', email: 'anna@beta.com', city: 'Bergen', amount: '1000' },
    companies: ['11'],
    addresses: [{ city: 'Oslo', state: 'CA' }],
  },
  {
    properties: { firstname: 'Zoë', lastname: 'Müller', email: 'zoe@alpha.io', city: 'Oslo', amount: '25.5' },
    companies: [],
  },
  {
    properties: { firstname: 'Teo', lastname: 'Smith', email: 'teo.smith@gamma.org', city: null, amount: 'n/a' },
    companies: ['12'],
  },
  {
    properties: { firstname: 'Bob', lastname: 'Builder_Jr', email: 'bob%50@beta.com', city: 'Trondheim', amount: '-3' },
    companies: ['10'],
    archived: true,
  },
  {
    properties: { firstname: 'anna', lastname: 'Smithson', email: 'anna2@alpha.io', city: 'oslo', amount: '1000.0' },
    companies: ['13', '10'],
  },
];

beforeAll(async () => {
  svc = await createPeopleService();
  id = await svc.createConnector('people');
  await insertPeople(
    svc,
    id,
    PEOPLE.map((p, i) => ({ ...p, createdAt: `2026-01-0${i + 1}T00:00:00.000Z` })),
  );
  await waitForStatus(svc, id, 'Ready');
});
afterAll(async () => svc.close());

const ids = async (filter: unknown, extra: Record<string, unknown> = {}) =>
  (await searchIds(svc, id, { query: { filter }, ...extra })).ids.map(Number).sort((a, b) => a - b);

describe('filter operators', () => {
  it('eq and neq on strings, numbers, booleans and null', async () => {
    expect(await ids({ eq: { 'properties.city': 'Oslo' } })).toEqual([1, 3]);
    expect(await ids({ eq: { 'properties.amount': 1000 } })).toEqual([2, 6]); // numeric: "1000" and "1000.0"
    expect(await ids({ eq: { 'properties.amount': '1000' } })).toEqual([2]); // string: exact text
    expect(await ids({ eq: { archived: true } })).toEqual([5]);
    expect(await ids({ eq: { 'properties.city': null } })).toEqual([4]);
    expect(await ids({ neq: { 'properties.city': 'Oslo' } })).toEqual([2, 4, 5, 6]);
    expect(await ids({ neq: { 'properties.city': null } })).toEqual([1, 2, 3, 5, 6]);
    expect(await ids({ eq: { id: '3' } })).toEqual([3]);
  });

  it('gt, gte, lt, lte: numbers compare numerically, strings as text (ISO dates)', async () => {
    expect(await ids({ gt: { 'properties.amount': 900 } })).toEqual([2, 6]);
    expect(await ids({ gte: { 'properties.amount': 900 } })).toEqual([1, 2, 6]);
    expect(await ids({ lt: { 'properties.amount': 0 } })).toEqual([5]);
    expect(await ids({ lte: { 'properties.amount': 25.5 } })).toEqual([3, 5]);
    expect(await ids({ gte: { createdAt: '2026-01-05T00:00:00.000Z' } })).toEqual([5, 6]);
    expect(await ids({ lt: { createdAt: '2026-01-02' } })).toEqual([1]);
  });

  it('several bounds on one field in one AND form one range (same results as each bound alone)', async () => {
    expect(await ids({ gte: { createdAt: '2026-01-02' }, lt: { createdAt: '2026-01-05' } })).toEqual([2, 3, 4]);
    expect(await ids({ and: [{ gt: { 'properties.amount': 0 } }, { lte: { 'properties.amount': 900 } }] })).toEqual([
      1, 3,
    ]);
    expect(await ids({ and: [{ gt: { 'properties.amount': 0 } }, { lt: { 'properties.amount': '2' } }] })).toEqual([
      2, 6,
    ]); // number and text bounds stay apart
    expect(
      await ids({
        and: [
          { gte: { createdAt: '2026-01-02' } },
          { lt: { createdAt: '2026-01-05' } },
          { eq: { 'properties.city': 'Oslo' } },
        ],
      }),
    ).toEqual([3]);
  });

  it('in with strings and numbers', async () => {
    expect(await ids({ in: { 'properties.city': ['Bergen', 'Trondheim'] } })).toEqual([2, 5]);
    expect(await ids({ in: { 'properties.amount': [900, -3] } })).toEqual([1, 5]);
  });

  it('like: case-insensitive substring, % as wildcard, _ literal', async () => {
    expect(await ids({ like: { 'properties.email': 'ALPHA' } })).toEqual([1, 3, 6]);
    expect(await ids({ like: { 'properties.email': 'teo%org' } })).toEqual([4]);
    expect(await ids({ like: { 'properties.lastname': 'r_j' } })).toEqual([5]);
    expect(await ids({ like: { 'properties.lastname': 'smith' } })).toEqual([1, 4, 6]);
  });

  it('fuzzy: every word is a word prefix, any order, ignoring case, punctuation and accents', async () => {
    expect(await ids({ fuzzy: { 'properties.firstname': 'teo' } })).toEqual([1, 4]);
    expect(await ids({ fuzzy: { 'properties.lastname': 'smith o' } })).toEqual([1]);
    expect(await ids({ fuzzy: { 'properties.lastname': 'SMITH' } })).toEqual([1, 4, 6]);
    expect(await ids({ fuzzy: { 'properties.lastname': 'muller' } })).toEqual([3]);
    expect(await ids({ fuzzy: { 'properties.firstname': 'zoe' } })).toEqual([3]);
    expect(await ids({ fuzzy: { 'properties.lastname': 'brien, o.' } })).toEqual([1]);
    // The word is scoped to the field: "teo" is in the email of 4 too but fuzzy on lastname does not see it.
    expect(await ids({ fuzzy: { 'properties.lastname': 'teo' } })).toEqual([]);
  });

  it('keyword: any word present as a whole word', async () => {
    expect(await ids({ keyword: { 'properties.lastname': 'smith builder' } })).toEqual([1, 4, 5]); // Builder_Jr: _ separates words
    expect(await ids({ keyword: { 'properties.lastname': 'smit' } })).toEqual([]);
  });

  it('contains and any on array fields', async () => {
    expect(await ids({ contains: { companies: '10' } })).toEqual([1, 5, 6]);
    expect(await ids({ contains: { companies: 11 } })).toEqual([1, 2]);
    expect(await ids({ any: { companies: { in: { value: ['12', '13'] } } } })).toEqual([4, 6]);
    expect(await ids({ any: { companies: { gt: { value: 11 } } } })).toEqual([4, 6]);
  });

  it('any on arrays of objects: every inner condition holds for the same element', async () => {
    expect(await ids({ any: { addresses: { eq: { state: 'CA' } } } })).toEqual([1, 2]);
    // Person 1 has Oslo and CA, but in different elements; only person 2 has one element with both.
    expect(await ids({ any: { addresses: { eq: { city: 'Oslo', state: 'CA' } } } })).toEqual([2]);
    expect(
      await ids({ any: { addresses: { and: [{ like: { city: 'fres' } }, { not: { eq: { state: 'NO' } } }] } } }),
    ).toEqual([1]);
    expect(await ids({ not: { any: { addresses: { eq: { state: 'CA' } } } } })).toEqual([3, 4, 5, 6]);
  });

  it('not, and, or, and several operators in one object (ANDed)', async () => {
    expect(await ids({ not: { eq: { 'properties.city': 'Oslo' } } })).toEqual([2, 4, 5, 6]);
    expect(
      await ids({ and: [{ like: { 'properties.email': 'alpha' } }, { gt: { 'properties.amount': 100 } }] }),
    ).toEqual([1, 6]);
    expect(await ids({ or: [{ eq: { 'properties.city': 'Bergen' } }, { eq: { archived: true } }] })).toEqual([2, 5]);
    expect(await ids({ like: { 'properties.email': 'alpha' }, eq: { 'properties.city': 'Oslo' } })).toEqual([1, 3]);
    expect(await ids({ eq: { 'properties.city': 'Oslo', 'properties.firstname': 'Zoë' } })).toEqual([3]);
    expect(
      await ids({
        or: [
          { and: [{ fuzzy: { 'properties.firstname': 'anna' } }, { not: { eq: { 'properties.city': 'Bergen' } } }] },
          { contains: { companies: '12' } },
        ],
      }),
    ).toEqual([4, 6]);
  });

  it('no filter returns everything, archived records included', async () => {
    expect(await ids(undefined)).toEqual([1, 2, 3, 4, 5, 6]);
  });
});

describe('sort, fields and limit', () => {
  it('sorts asc/desc with missing values last (asc) and a stable id tie-break', async () => {
    const byCity = (await searchIds(svc, id, { query: { sort: [{ 'properties.city': 'asc' }] } })).ids;
    expect(byCity).toEqual(['2', '1', '3', '5', '6', '4']); // Bergen, Oslo(1,3 by id), Trondheim, oslo, null
    const desc = (await searchIds(svc, id, { query: { sort: [{ 'properties.city': 'desc' }, { createdAt: 'desc' }] } }))
      .ids;
    expect(desc).toEqual(['4', '6', '5', '3', '1', '2']);
    const amounts = (await searchIds(svc, id, { query: { sort: [{ 'properties.amount': 'asc' }] } })).ids;
    expect(amounts).toEqual(['5', '3', '1', '2', '6', '4']); // -3, 25.5, 900, 1000, 1000.0 (tie by id), then "n/a" (text after numbers)
  });

  it('returns only the requested fields, nested as in the record', async () => {
    const { body } = await searchIds(svc, id, {
      query: { filter: { eq: { id: '1' } } },
      fields: ['id', 'properties.email', 'companies'],
    });
    expect(body.result.data).toEqual([{ id: '1', properties: { email: 'teo@alpha.io' }, companies: ['10', '11'] }]);
  });

  it('answers the full searchable record and meta, mirrored in connector_metadata', async () => {
    const { body } = await searchIds(svc, id, { query: { filter: { eq: { id: '2' } } } });
    expect(body.result.data[0]).toEqual({
      id: '2',
      archived: false,
      createdAt: '2026-01-02T00:00:00.000Z',
      updatedAt: '2026-01-02T00:00:00.000Z',
      properties: PEOPLE[1]!.properties,
      companies: ['11'],
      addresses: [{ city: 'Oslo', state: 'CA' }],
    });
    expect(body.result.meta).toMatchObject({ has_more: false, cursor: null });
    expect(typeof body.result.meta.took_ms).toBe('number');
    expect(body.connector_metadata).toEqual({ has_next_page: false, end_cursor: null });
    expect(body.execution_metadata.connector_instance_id).toBe(`source_id:${id}`);
  });

  it('uses limit 1000 by default and rejects limits over the maximum', async () => {
    const res = await search(svc, id, { query: {}, limit: 1001 });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors.map((e: any) => e.field)).toContain('params.limit');
  });
});

describe('invalid queries are 400s naming the path inside params.query', () => {
  const problem = async (params: Record<string, unknown>) => {
    const res = await search(svc, id, params);
    expect(res.statusCode, res.body).toBe(400);
    return res.json().errors as { field: string; message: string; error_code: string }[];
  };

  it('names unknown fields and operators, wrong value types and malformed trees', async () => {
    expect(
      (await problem({ query: { filter: { and: [{ eq: { id: '1' } }, { eq: { 'properties.emial': 'x' } }] } } }))[0],
    ).toMatchObject({
      field: 'params.query.filter.and[1].eq["properties.emial"]',
      error_code: 'invalid_filter',
    });
    expect((await problem({ query: { filter: { between: { id: '1' } } } }))[0]!.field).toBe(
      'params.query.filter.between',
    );
    expect((await problem({ query: { filter: { eq: { archived: 'yes' } } } }))[0]!.field).toBe(
      'params.query.filter.eq["archived"]',
    );
    expect((await problem({ query: { filter: { in: { id: 'x' } } } }))[0]!.field).toBe('params.query.filter.in["id"]');
    expect((await problem({ query: { filter: { and: {} } } }))[0]!.field).toBe('params.query.filter.and');
    expect((await problem({ query: { filter: { or: [] } } }))[0]!.field).toBe('params.query.filter.or');
    expect((await problem({ query: { filter: { not: { eq: { companies: '1' } } } } }))[0]!.field).toBe(
      'params.query.filter.not.eq["companies"]',
    );
    expect((await problem({ query: { filter: { fuzzy: { createdAt: '2026' } } } }))[0]!.field).toBe(
      'params.query.filter.fuzzy["createdAt"]',
    );
    expect((await problem({ query: { filter: { contains: { 'properties.city': 'Oslo' } } } }))[0]!.field).toBe(
      'params.query.filter.contains["properties.city"]',
    );
    expect((await problem({ query: { filter: { fuzzy: { 'properties.city': '...' } } } }))[0]!.field).toBe(
      'params.query.filter.fuzzy["properties.city"]',
    );
    expect((await problem({ query: { sort: [{ 'properties.nope': 'asc' }] } }))[0]!.field).toBe(
      'params.query.sort[0]["properties.nope"]',
    );
    expect((await problem({ query: { sort: [{ id: 'up' }] } }))[0]!.field).toMatch(/^params\.query\.sort/);
    expect((await problem({ fields: ['properties.nope'], query: {} }))[0]!.field).toBe('params.fields[0]');
    expect((await problem({}))[0]!.field).toBe('params.query');
  });

  it('knows no field by a prototype name: filters, sorts and fields on constructor, toString, ... are unknown', async () => {
    // (A "__proto__" key never gets this far: the JSON parser refuses it as a body problem.)
    for (const name of ['constructor', 'toString', 'valueOf', 'hasOwnProperty', '__defineGetter__']) {
      const [filter] = await problem({ query: { filter: { eq: { [name]: 'x' } } } });
      expect(filter).toMatchObject({
        field: `params.query.filter.eq[${JSON.stringify(name)}]`,
        error_code: 'invalid_filter',
      });
      expect(filter!.message).toMatch(/unknown field/);
      const [sort] = await problem({ query: { sort: [{ [name]: 'asc' }] } });
      expect(sort).toMatchObject({
        field: `params.query.sort[0][${JSON.stringify(name)}]`,
        error_code: 'invalid_sort',
      });
    }
    for (const name of ['constructor', 'toString', 'valueOf', '__proto__', 'constructor.prototype']) {
      const [fields] = await problem({ query: {}, fields: [name] });
      expect(fields).toMatchObject({ field: 'params.fields[0]', error_code: 'invalid_fields' });
    }
    // Paths under an array field are the elements' keys: a prototype name there is a key no element has.
    const res = await search(svc, id, {
      query: { filter: { eq: { id: '1' } } },
      fields: ['id', 'companies.constructor'],
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().result.data).toEqual([{ id: '1', companies: { constructor: [null, null] } }]);
  });

  it('collects every problem of a query, not only the first', async () => {
    const errors = await problem({
      query: { filter: { and: [{ eq: { nope: 1 } }, { gt: { archived: true } }, { zz: {} }] } },
    });
    expect(errors.map((e) => e.field)).toEqual([
      'params.query.filter.and[0].eq["nope"]',
      'params.query.filter.and[1].gt["archived"]',
      'params.query.filter.and[2].zz',
    ]);
  });

  it('cannot be injected through a field name or a value', async () => {
    const errors = await problem({ query: { filter: { eq: { "id') OR 1=1; DROP TABLE cs_docs; --": 'x' } } } });
    expect(errors[0]!.message).toMatch(/unknown field/);
    expect(await ids({ eq: { 'properties.city': "Oslo' OR '1'='1" } })).toEqual([]);
    expect(await ids({ like: { 'properties.city': "%' OR 1=1 --" } })).toEqual([]);
    expect(await ids({ fuzzy: { 'properties.firstname': 'teo" OR NEAR(x' } })).toEqual([]);
    expect(await ids({ fuzzy: { 'properties.firstname': '"teo"*' } })).toEqual([1, 4]);
    expect(await ids(undefined)).toHaveLength(6); // the index is intact
  });

  it('rejects a cursor that is not one of ours or belongs to another query', async () => {
    expect((await problem({ query: {}, cursor: 'not a cursor!' }))[0]!.field).toBe('params.cursor');
    const first = await searchIds(svc, id, { query: { sort: [{ createdAt: 'asc' }] }, limit: 2 });
    const cursor = first.body.result.meta.cursor as string;
    expect(cursor).toMatch(/^[A-Za-z0-9_-]+$/);
    expect((await problem({ query: { sort: [{ createdAt: 'desc' }] }, cursor, limit: 2 }))[0]!.field).toBe(
      'params.cursor',
    );
    // Well-formed but not issued: the position of the first page's last record, written by hand with the
    // query's fingerprint, is refused like any other cursor this service did not issue.
    const query = { sort: [{ createdAt: 'asc' }] };
    const fingerprint = createHash('sha256')
      .update(JSON.stringify({ s: query.sort }))
      .digest('base64url')
      .slice(0, 16);
    const position = { v: [[2, 0, '2026-01-02T00:00:00.000Z']], i: '2', q: fingerprint };
    const forged = Buffer.from(JSON.stringify(position)).toString('base64url');
    for (const c of [forged, forged + cursor.slice(-22), cursor.slice(0, -1) + (cursor.endsWith('A') ? 'B' : 'A')]) {
      const [err] = await problem({ query, cursor: c, limit: 2 });
      expect(err).toMatchObject({ field: 'params.cursor', error_code: 'invalid_cursor' });
    }
    const next = await searchIds(svc, id, { query, cursor, limit: 2 });
    expect(next.ids).toEqual(['3', '4']);
  });
});
