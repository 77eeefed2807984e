import { Validator } from '@seriousme/openapi-schema-validator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectorTypes } from '../../../src/service/connectors/registry.js';
import { createTestService, type TestService } from '../helpers.js';

let svc: TestService;
let doc: any;

beforeAll(async () => {
  svc = await createTestService();
  const res = await svc.app.inject({ method: 'GET', url: '/api/v1/openapi.json' });
  expect(res.statusCode).toBe(200);
  doc = res.json();
});
afterAll(async () => svc.close());

/**
 * Every METHOD + path Fastify itself reports, read from printRoutes (independent of the route table the
 * document is built from). It prints a tree; a line's depth is the column of its branch mark / 4:
 *   ├── /api/v1/workspaces (GET, HEAD)
 *   │   └── /:id (GET, HEAD, PUT, DELETE)
 */
function registeredRoutes(): string[] {
  const text = svc.app.printRoutes({ commonPrefix: false });
  const stack: string[] = [];
  const out: string[] = [];
  for (const line of text.split('\n')) {
    const m = /^(.*?)[├└]── (\S+)(?: \(([A-Z, ]+)\))?$/.exec(line);
    if (!m) continue;
    const depth = Math.round(m[1]!.length / 4);
    const path = (stack[depth - 1] ?? '') + m[2]!;
    stack[depth] = path;
    stack.length = depth + 1;
    for (const method of (m[3] ?? '').split(', ').filter(Boolean)) {
      if (method !== 'HEAD' && method !== 'OPTIONS') out.push(`${method} ${path.replace(/:([A-Za-z0-9_]+)/g, '{$1}')}`);
    }
  }
  return out;
}

describe('GET /api/v1/openapi.json', () => {
  it('is a valid OpenAPI 3.1 document (checked against the 3.1 meta-schema)', async () => {
    expect(doc.openapi).toBe('3.1.0');
    const result = await new Validator().validate(doc);
    expect(result.valid, JSON.stringify(result.errors, null, 1)?.slice(0, 2000)).toBe(true);
    // The validator does reject a broken document (so the check above can fail).
    const broken = { ...doc, paths: { ...doc.paths, '/api/v1/skills': { get: { responses: { '200': {} } } } } };
    expect((await new Validator().validate(broken)).valid).toBe(false);
  });

  it('sends an ETag, and answers 304 with no body to an If-None-Match that names it', async () => {
    const first = await svc.app.inject({ method: 'GET', url: '/api/v1/openapi.json' });
    const etag = first.headers.etag as string;
    expect(etag).toMatch(/^"[A-Za-z0-9_-]{32}"$/);
    expect(first.headers['cache-control']).toBe('no-cache');
    for (const ifNoneMatch of [etag, `W/${etag}`, `"other", ${etag}`, '*']) {
      const res = await svc.app.inject({
        method: 'GET',
        url: '/api/v1/openapi.json',
        headers: { 'if-none-match': ifNoneMatch },
      });
      expect(res.statusCode, ifNoneMatch).toBe(304);
      expect(res.body).toBe('');
      expect(res.headers.etag).toBe(etag);
    }
    const stale = await svc.app.inject({
      method: 'GET',
      url: '/api/v1/openapi.json',
      headers: { 'if-none-match': '"an-older-document"' },
    });
    expect(stale.statusCode).toBe(200);
    expect(stale.body).toBe(first.body);
    // documented: the header it reads, the 304 and the ETag it sends
    const op = doc.paths['/api/v1/openapi.json'].get;
    expect(op.parameters.map((p: { name: string }) => p.name)).toContain('If-None-Match');
    expect(Object.keys(op.responses)).toContain('304');
    expect(Object.keys(op.responses['200'].headers)).toEqual(['ETag']);
  });

  it('documents every route the server registers', () => {
    const routes = registeredRoutes();
    expect(routes.length).toBeGreaterThanOrEqual(15);
    const documented = Object.entries(doc.paths).flatMap(([path, ops]) =>
      Object.keys(ops as object).map((m) => `${m.toUpperCase()} ${path}`),
    );
    for (const r of routes) expect(documented, `missing ${r}`).toContain(r);
    expect(documented.sort()).toEqual([...new Set(routes)].sort());
  });

  it('documents execute params per connector type, entity and action from the same schemas that validate execute', () => {
    const body =
      doc.paths['/api/v1/integrations/connectors/{id}/execute'].post.requestBody.content['application/json'].schema;
    const expected = connectorTypes.flatMap((t) =>
      t.actions.map((a) => `${t.definition.name}: ${a.entity}.${a.action}`),
    );
    expect(body.oneOf.map((v: any) => v.title)).toEqual(expected);
    const download = body.oneOf.find((v: any) => v.title === 'Files: files.download');
    expect(download.properties.params.required).toEqual(['fileId']);
    expect(download.properties.params.properties.fileId.description).toBeTruthy();
    const list = body.oneOf.find((v: any) => v.title === 'Files: files.list');
    expect(list.properties.params.properties.limit.maximum).toBe(200);
    const ref: string = list['x-result-schema'].$ref;
    expect(doc.components.schemas[ref.replace('#/components/schemas/', '')].type).toBe('array');
    // The envelope's result is any of those schemas, so a validator or a generated client can use them.
    const envelope =
      doc.paths['/api/v1/integrations/connectors/{id}/execute'].post.responses['200'].content['application/json']
        .schema;
    expect(envelope.properties.result.anyOf).toContainEqual({ $ref: ref });
  });

  it('needs no token, marks public routes and describes errors', () => {
    expect(doc.paths['/api/v1/openapi.json'].get.security).toEqual([]);
    expect(doc.paths['/api/v1/account/applications/token'].post.security).toEqual([]);
    const inspect = doc.paths['/api/v1/integrations/connectors/{id}/inspect'].get;
    expect(inspect.security).toBeUndefined();
    expect(inspect.responses['404'].content['application/json'].schema.$ref).toBe('#/components/schemas/Error');
    expect(inspect.responses['200'].content['application/json'].schema.properties.docs_skill_id).toBeDefined();
    expect(inspect.parameters).toContainEqual(expect.objectContaining({ name: 'id', in: 'path', required: true }));
    const docs = doc.paths['/api/v1/skills/docs'].get;
    expect(docs.parameters).toContainEqual(expect.objectContaining({ name: 'id', in: 'query', required: true }));
  });
});

describe('the document is precise', () => {
  const ops = () =>
    Object.entries(doc.paths).flatMap(([path, byMethod]) =>
      Object.entries(byMethod as Record<string, any>).map(([method, o]) => ({ key: `${method} ${path}`, o })),
    );

  it('names its contact and license, and gives every operation a summary and a description', () => {
    expect(doc.info.contact.name).toBeTruthy();
    expect(doc.info.license).toEqual({ name: 'MIT', identifier: 'MIT' });
    for (const { key, o } of ops()) {
      expect(o.summary, key).toMatch(/^[A-Z]/);
      expect(o.description, key).toBeTruthy();
      expect(o.summary, key).not.toContain('/api/v1');
    }
  });

  it('declares 401, 403 and 429 (with Retry-After) wherever a bearer token is needed, 413 and 415 wherever a body is', () => {
    for (const { key, o } of ops()) {
      const needsToken = o.security === undefined;
      expect(o.responses['401'] !== undefined, key).toBe(
        needsToken || key === 'post /api/v1/account/applications/token',
      );
      if (needsToken) {
        expect(o.responses['403'], key).toBeDefined();
        expect(o.responses['429'].headers['Retry-After'].schema.type, key).toBe('integer');
      }
      expect(o.responses['413'] !== undefined, key).toBe(o.requestBody !== undefined);
      expect(o.responses['415'] !== undefined, key).toBe(o.requestBody !== undefined);
      expect(o.responses['500'], key).toBeDefined();
    }
  });

  it("declares the statuses and headers routes answer: delete's 202, 404s, 422s, execute's headers and any media type for downloads", () => {
    const connector = doc.paths['/api/v1/integrations/connectors/{id}'];
    expect(Object.keys(connector.delete.responses)).toContain('202');
    expect(connector.delete.responses['200']).toBeUndefined();
    expect(connector.get.responses['404']).toBeDefined();
    expect(doc.paths['/api/v1/integrations/connectors'].post.responses['422']).toBeDefined();
    const execute = doc.paths['/api/v1/integrations/connectors/{id}/execute'].post;
    expect(Object.keys(execute.responses['200'].headers).sort()).toEqual([
      'Content-Disposition',
      'Idempotent-Replayed',
      'RateLimit-Limit',
      'RateLimit-Policy',
      'RateLimit-Remaining',
      'RateLimit-Reset',
    ]);
    expect(Object.keys(execute.responses['200'].content)).toEqual(['application/json', '*/*']);
    for (const code of ['403', '404', '409', '422']) expect(execute.responses[code], code).toBeDefined();
    expect(doc.paths['/api/v1/workspaces/{id}'].put.responses['409']).toBeDefined();
    const variant = execute.requestBody.content['application/json'].schema.oneOf[0];
    expect(variant.properties.entity).toMatchObject({ const: variant.properties.entity.enum[0] });
    expect(variant.properties.action.enum).toEqual([variant.properties.action.const]);
    expect(doc.components.schemas.Error.properties.errors.items.properties.details.additionalProperties).toBe(true);
  });

  it('declares the x-organization-id header on every operation but the document itself', () => {
    for (const { key, o } of ops()) {
      const header = o.parameters.find((p: any) => p.name === 'x-organization-id' && p.in === 'header');
      expect(header !== undefined, key).toBe(!key.endsWith('/openapi.json'));
    }
  });
});
