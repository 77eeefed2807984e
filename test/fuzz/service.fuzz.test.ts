import fc from 'fast-check';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestService, type TestService } from '../service/helpers.js';

/**
 * Property-based fuzzing of the connector service through its HTTP layer (inject, real SQLite): the classes of
 * issue 25 (hostile names and encodings, prototype keys, forged cursors, lone surrogates, malformed
 * percent-encoding, deep JSON). Every answer is below 500 and, when an error, in the documented shape with
 * the documented code. Deterministic (fixed seed) and bounded: each property stops after its run count or
 * its time limit, whichever comes first.
 */
const SEED = 20261127;
const RUNS = 150;
/** No property runs longer than this (a loaded machine runs fewer cases, never a longer suite). */
const TIME_LIMIT_MS = 4_000;
const opts = { seed: SEED, numRuns: RUNS, interruptAfterTimeLimit: TIME_LIMIT_MS };

const PROTO = [
  'constructor',
  'toString',
  'valueOf',
  'hasOwnProperty',
  'isPrototypeOf',
  'propertyIsEnumerable',
  'toLocaleString',
  '__defineGetter__',
  '__lookupGetter__',
];
const protoName = fc.constantFrom(...PROTO);
const protoValue = fc.constantFrom(...PROTO, '__proto__', 'constructor.prototype', '__proto__.polluted');

let svc: TestService;
let headers: Record<string, string>;
let crm: string;
let files: string;
let folder: string;

/** Any answer: below 500; an error has {message, errors: [{field, message, error_code, details}]}. */
function expectShape(res: LightMyRequestResponse, what: string): void {
  expect(res.statusCode, `${what}: ${res.body.slice(0, 300)}`).toBeLessThan(500);
  if (res.statusCode < 400) return;
  const body = JSON.parse(res.body) as { message: unknown; errors: Record<string, unknown>[] };
  expect(Object.keys(body).sort(), what).toEqual(['errors', 'message']);
  expect(typeof body.message, what).toBe('string');
  expect(body.errors.length, what).toBeGreaterThan(0);
  for (const e of body.errors) {
    expect(Object.keys(e).sort(), what).toEqual(['details', 'error_code', 'field', 'message']);
    expect(e.error_code, what).toMatch(/^[a-z_]+$/);
  }
}

function codes(res: LightMyRequestResponse): string[] {
  return (JSON.parse(res.body) as { errors: { error_code: string }[] }).errors.map((e) => e.error_code);
}

const send = (method: 'GET' | 'POST' | 'PUT', url: string, payload?: string) =>
  svc.app.inject({
    method,
    url,
    headers: { ...headers, ...(payload !== undefined && { 'content-type': 'application/json' }) },
    ...(payload !== undefined && { payload }),
  });
const execute = (id: string, body: unknown) =>
  send('POST', `/api/v1/integrations/connectors/${id}/execute`, JSON.stringify(body));

beforeAll(async () => {
  svc = await createTestService();
  headers = await svc.auth();
  crm = await svc.createConnector('crm');
  files = await svc.createConnector('files');
  const created = await execute(crm, {
    entity: 'contacts',
    action: 'create',
    params: { properties: { email: 'ada@example.com', firstname: 'Ada' } },
  });
  expect(created.statusCode, created.body).toBe(200);
  folder = (
    JSON.parse((await execute(files, { entity: 'folders', action: 'create', params: { name: 'F' } })).body) as {
      result: { id: string };
    }
  ).result.id;
  await svc.app.contextStore.drain();
}, 60_000);
afterAll(async () => svc?.close());

describe('service fuzz', () => {
  it('file names and content types of any characters: created ones download, the rest are 400s', async () => {
    const name = fc.string({ unit: 'binary', minLength: 1, maxLength: 24 });
    const contentType = fc.option(
      fc.string({ unit: 'binary', maxLength: 12 }).map((p) => `text/plain;${p}`),
      { nil: undefined },
    );
    await fc.assert(
      fc.asyncProperty(name, contentType, async (n, ct) => {
        const res = await execute(files, {
          entity: 'files',
          action: 'create',
          params: { name: n, folderId: folder, content: 'eA==', ...(ct !== undefined && { content_type: ct }) },
        });
        expectShape(res, `create ${JSON.stringify(n)} ${JSON.stringify(ct)}`);
        if (res.statusCode !== 200) return;
        const id = (JSON.parse(res.body) as { result: { id: string } }).result.id;
        const down = await execute(files, { entity: 'files', action: 'download', params: { fileId: id } });
        expect(down.statusCode, JSON.stringify(n)).toBe(200);
        const cd = String(down.headers['content-disposition']);
        const star = /filename\*=UTF-8''(.*)$/.exec(cd)?.[1];
        expect(star === undefined ? /filename="(.*)"$/.exec(cd)?.[1] : decodeURIComponent(star)).toBe(n);
      }),
      opts,
    );
  });

  it('strings holding a lone surrogate are 400 validation_error wherever they are in a body', async () => {
    const lone = fc
      .tuple(fc.string({ maxLength: 8 }), fc.integer({ min: 0xd800, max: 0xdfff }), fc.string({ maxLength: 8 }))
      .map(([a, c, b]) => `${a}${String.fromCharCode(c)}${b}`);
    await fc.assert(
      fc.asyncProperty(lone, fc.integer({ min: 0, max: 3 }), async (s, where) => {
        const res =
          where === 0
            ? await send(
                'POST',
                '/api/v1/integrations/connectors',
                JSON.stringify({ workspace_name: 'default', connector_type: 'crm', name: s }),
              )
            : where === 1
              ? await execute(crm, {
                  entity: 'contacts',
                  action: 'create',
                  params: { properties: { email: 'x@y.z', firstname: s } },
                })
              : where === 2
                ? await execute(crm, { entity: 'contacts', action: 'list', select_fields: ['id', s] })
                : await execute(files, { entity: 'folders', action: 'create', params: { name: s } });
        expectShape(res, JSON.stringify(s));
        expect(res.statusCode).toBe(400);
        expect(codes(res)).toEqual(['validation_error']);
      }),
      opts,
    );
  });

  it('prototype names are unknown fields, sections, entities and actions, never a 200 or a 500', async () => {
    await fc.assert(
      fc.asyncProperty(protoName, protoValue, fc.integer({ min: 0, max: 5 }), async (key, value, which) => {
        const search = (params: Record<string, unknown>) =>
          execute(crm, { entity: 'contacts', action: 'context_store_search', params });
        switch (which) {
          case 0: {
            const res = await search({ query: { filter: { eq: { [key]: 'x' } } } });
            expectShape(res, key);
            expect(codes(res)).toEqual(['invalid_filter']);
            return;
          }
          case 1: {
            const res = await search({ query: { sort: [{ [key]: 'asc' }] } });
            expectShape(res, key);
            expect(codes(res)).toEqual(['invalid_sort']);
            return;
          }
          case 2: {
            const res = await search({ query: {}, fields: [value] });
            expectShape(res, value);
            expect(codes(res)).toEqual(['invalid_fields']);
            return;
          }
          case 3: {
            const res = await send('GET', `/api/v1/skills/docs?id=agent:recipes&section=${encodeURIComponent(value)}`);
            expectShape(res, value);
            expect(res.statusCode).toBe(404);
            return;
          }
          case 4: {
            const res = await execute(crm, {
              entity: 'contacts',
              action: 'list',
              select_fields: [value, 'id'],
              exclude_fields: [value],
            });
            expectShape(res, value);
            expect(res.statusCode).toBe(200);
            return;
          }
          default: {
            const res = await execute(crm, { entity: key, action: value });
            expectShape(res, `${key}.${value}`);
            expect(codes(res)).toEqual(['unknown_entity']);
            return;
          }
        }
      }),
      opts,
    );
  });

  it('cursors the service did not issue are 400s on every paged route', async () => {
    const forged = fc.oneof(
      fc.jsonValue().map((v) => Buffer.from(JSON.stringify(v)).toString('base64url')),
      fc.base64String({ minLength: 1, maxLength: 80 }),
      fc.string({ minLength: 1, maxLength: 40 }),
      fc.constantFrom(
        Buffer.from(JSON.stringify(['2000-01-01T00:00:00.000Z', '0'])).toString('base64url'),
        Buffer.from('o:1').toString('base64url'),
      ),
    );
    await fc.assert(
      fc.asyncProperty(forged, fc.integer({ min: 0, max: 2 }), async (cursor, where) => {
        const res =
          where === 0
            ? await send('GET', `/api/v1/workspaces?cursor=${encodeURIComponent(cursor)}`)
            : where === 1
              ? await send('GET', `/api/v1/skills?cursor=${encodeURIComponent(cursor)}`)
              : await execute(crm, {
                  entity: 'contacts',
                  action: 'context_store_search',
                  params: { query: {}, cursor },
                });
        expectShape(res, cursor);
        expect(res.statusCode, cursor).toBe(400);
        expect(['invalid_cursor', 'validation_error']).toContain(codes(res)[0]);
      }),
      opts,
    );
  });

  it('malformed percent-encoding in paths and queries is a 4xx in the error shape', async () => {
    const bad = fc
      .tuple(fc.string({ maxLength: 6 }), fc.constantFrom('%', '%E0%A4%A', '%ZZ', '%C3', '%ED%A0%80', '%00', '%%'))
      .map(([a, b]) => `${encodeURIComponent(a)}${b}`);
    const base = fc.constantFrom(
      '/api/v1/workspaces/',
      '/api/v1/integrations/connectors/',
      '/api/v1/integrations/definitions/sources/',
      '/api/v1/workspaces?name_contains=',
      '/api/v1/skills/docs?id=',
      '/api/v1/',
    );
    await fc.assert(
      fc.asyncProperty(base, bad, async (b, s) => {
        const res = await send('GET', b + s);
        expectShape(res, b + s);
      }),
      opts,
    );
  });

  it('JSON nested at any depth: over 100 levels is 400 json_too_deep, never a 500', async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 1, max: 20_000 }), fc.boolean(), async (depth, arrays) => {
        const [open, close] = arrays ? ['[', ']'] : ['{"a":', '}'];
        const params = `${open.repeat(depth)}1${close.repeat(depth)}`;
        const res = await send(
          'POST',
          `/api/v1/integrations/connectors/${crm}/execute`,
          `{"entity":"contacts","action":"list","params":{"p":${params}}}`,
        );
        expectShape(res, `depth ${depth}`);
        if (depth > 100) expect(codes(res)).toEqual(['json_too_deep']);
      }),
      opts,
    );
  });
});
