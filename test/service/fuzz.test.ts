import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectorTypes } from '../../src/service/connectors/registry.js';
import { createTestService, type TestService } from './helpers.js';

// No input gets a 500 (house rule). Hostile values go to every route the service registers: in each path
// parameter, each declared query parameter, each top-level body field and each param of every execute
// action, plus whole-body attacks (10,000-deep JSON, 5 MB, __proto__, not an object). Deterministic and
// bounded: the same few thousand requests on every run, through inject (no sockets).

const LONG = 'x'.repeat(100_000);
const STRINGS: readonly string[] = [
  "' OR 1=1 --",
  '"; DROP TABLE crm_records; --',
  "%' ESCAPE '\\",
  '_%*?[]^$.|()',
  'a\u0000b',
  '\ud800',
  'x\udfff\ud800y',
  '__proto__',
  'constructor.prototype',
  '${ $x } {{y}}',
  '\u202e\u200b\ufeff',
  LONG,
  '🙂'.repeat(500),
];
const VALUES: readonly unknown[] = [
  ...STRINGS,
  -1,
  0,
  1.5,
  1e308,
  -(2 ** 63),
  2 ** 53 + 1,
  null,
  true,
  [],
  {},
  [LONG],
  JSON.parse('{"__proto__":{"admin":true}}') as unknown,
];

/** JSON text of a value; objects made with a "__proto__" own key keep it (JSON.stringify writes own keys). */
const json = (v: unknown) => JSON.stringify(v);

function deepJson(depth: number): string {
  return `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
}

let svc: TestService;
let headers: Record<string, string>;
const ids: Record<string, string> = {};
const failures: string[] = [];
let sent = 0;

async function send(
  method: string,
  url: string,
  payload?: string,
  extraHeaders: Record<string, string> = {},
): Promise<void> {
  sent += 1;
  const res = await svc.app.inject({
    method: method as 'GET',
    url,
    headers: { ...headers, ...(payload !== undefined && { 'content-type': 'application/json' }), ...extraHeaders },
    ...(payload !== undefined && { payload }),
  });
  if (res.statusCode >= 500)
    failures.push(`${res.statusCode} ${method} ${url.slice(0, 120)} ${(payload ?? '').slice(0, 200)}`);
  else if (res.body.length > 0 && !res.headers['content-type']?.toString().startsWith('application/octet'))
    expect(() => JSON.parse(res.body), `${method} ${url} answers JSON`).not.toThrow();
}

/** Percent-encodes every UTF-8 byte (a lone surrogate becomes U+FFFD's bytes, as a client would send it). */
const enc = (s: string) => [...Buffer.from(s, 'utf8')].map((b) => `%${b.toString(16).padStart(2, '0')}`).join('');

/** A route's URL with every :param replaced. */
function fill(url: string, value: string): string {
  return `/api/v1${url.replace(/^\/api\/v1/, '')}`.replace(/:(\w+)/g, () => enc(value));
}

beforeAll(async () => {
  svc = await createTestService({ bodyLimit: 1024 * 1024 });
  headers = await svc.auth();
  for (const t of connectorTypes) ids[t.definition.slug] = await svc.createConnector(t.definition.slug);
  // Records to match against: some filters fail only when SQLite evaluates them on a row.
  for (const [i, name] of ['Ada Lovelace', "O'Brien-Smith", 'Zoë 渡辺'].entries()) {
    const [firstname, lastname] = name.split(' ');
    const res = await svc.execute(ids.crm!, {
      entity: 'contacts',
      action: 'create',
      params: { properties: { email: `p${i}@example.com`, firstname, lastname, company: `Co ${i}` } },
    });
    expect(res.statusCode, res.body).toBe(200);
  }
  await svc.app.contextStore.drain();
}, 60_000);
afterAll(async () => svc.close());

describe('hostile input never gets a 5xx', () => {
  it('every route: path parameters, query parameters, body fields, whole bodies', async () => {
    const routes = svc.app.routeTable.filter((r) => r.url.startsWith('/api/v1'));
    expect(routes.length).toBeGreaterThan(10);
    for (const r of routes) {
      const schema = (r.schema ?? {}) as {
        querystring?: { properties?: Record<string, unknown> };
        body?: { properties?: Record<string, unknown> };
      };
      const base = fill(r.url, 'x');
      if (r.url.includes(':')) for (const s of STRINGS) await send(r.method, fill(r.url, s));
      for (const q of [...Object.keys(schema.querystring?.properties ?? {}), 'unknown_param']) {
        for (const s of [...STRINGS, '-1', '0', '1e309', '99999999999', '%ZZ'])
          await send(r.method, `${base}?${q}=${enc(s)}`);
      }
      if (r.method === 'POST' || r.method === 'PUT' || r.method === 'PATCH') {
        for (const field of Object.keys(schema.body?.properties ?? {}))
          for (const v of VALUES) await send(r.method, base, json({ [field]: v }));
        for (const body of ['[]', '"text"', '42', 'null', '{"__proto__":{"admin":true}}', '{"a":', deepJson(10_000)])
          await send(r.method, base, body);
        await send(r.method, base, json({ blob: 'y'.repeat(5 * 1024 * 1024) }));
      }
    }
    for (const bad of ['Bearer', 'Bearer \u0000', `Bearer ${LONG}`, 'Basic abc', 'Bearer a.b.c'])
      await send('GET', '/api/v1/workspaces', undefined, { authorization: bad });
    for (const url of ['/api/v1/%', '/api/v1/workspaces/%E0%A4%A', `/api/v1/workspaces/${'a'.repeat(5000)}`, '/%00'])
      await send('GET', url);
    expect(failures).toEqual([]);
  }, 180_000);

  it('every execute action: each declared param with each hostile value, and hostile entity/action names', async () => {
    let turn = 0;
    for (const t of connectorTypes) {
      const url = `/api/v1/integrations/connectors/${ids[t.definition.slug]}/execute`;
      for (const a of t.actions) {
        const body = (params: unknown) => json({ entity: a.entity, action: a.action, params });
        await send('POST', url, body({}));
        for (const p of Object.keys((a.paramsSchema.properties ?? {}) as object)) {
          // Three values per param, taken in turn from the list: every value reaches every kind of param.
          for (let k = 0; k < 3; k++) await send('POST', url, body({ [p]: VALUES[turn++ % VALUES.length] }));
        }
      }
      for (const s of STRINGS) {
        await send('POST', url, json({ entity: s, action: 'list', params: {} }));
        await send('POST', url, json({ entity: t.actions[0]!.entity, action: s, params: {} }));
        await send(
          'POST',
          url,
          json({ ...JSON.parse(json({ entity: t.actions[0]!.entity, action: 'list' })), select_fields: [s] }),
        );
      }
    }
    expect(failures).toEqual([]);
  }, 180_000);

  it('the filter languages: long, odd and deep values in CRM api_search and context_store_search', async () => {
    const url = `/api/v1/integrations/connectors/${ids.crm}/execute`;
    const apiSearch = (filter: unknown, query?: string) =>
      send(
        'POST',
        url,
        json({
          entity: 'contacts',
          action: 'api_search',
          params: { filterGroups: [{ filters: [filter] }], ...(query !== undefined && { query }) },
        }),
      );
    const operators = [
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
    for (const operator of operators) {
      for (const s of STRINGS) {
        for (const propertyName of ['email', 'createdate', 'associatedcompanyid', s]) {
          await apiSearch({ propertyName, operator, value: s, values: [s, s], highValue: s });
        }
      }
    }
    for (const s of STRINGS)
      await send('POST', url, json({ entity: 'contacts', action: 'api_search', params: { query: s } }));
    const search = (query: unknown, extra: Record<string, unknown> = {}) =>
      send('POST', url, json({ entity: 'contacts', action: 'context_store_search', params: { query, ...extra } }));
    const ops = ['eq', 'neq', 'gt', 'gte', 'lt', 'lte', 'like', 'fuzzy', 'keyword', 'contains'];
    for (const op of ops) {
      for (const s of STRINGS) {
        for (const field of ['properties.email', 'createdAt', 'archived', 'companies', s]) {
          await search({ filter: { [op]: { [field]: s } } });
        }
        await search({ filter: { in: { 'properties.email': [s, s] } } });
      }
    }
    const deepFilter = `${'{"not":'.repeat(10_000)}{"eq":{"properties.email":"a"}}${'}'.repeat(10_000)}`;
    await send(
      'POST',
      url,
      `{"entity":"contacts","action":"context_store_search","params":{"query":{"filter":${deepFilter}}}}`,
    );
    for (const s of STRINGS) {
      await search({ sort: [{ [s]: 'asc' }] });
      await search({}, { cursor: s });
      await search({}, { fields: [s] });
      await search({}, { limit: s });
    }
    expect(failures).toEqual([]);
    expect(sent).toBeLessThan(20_000);
  }, 180_000);
});
