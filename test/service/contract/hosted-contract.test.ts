/**
 * The embedded service against the hosted service's published contract (facts restated in
 * test/fixtures/hosted-contract/, see its README): over real HTTP, every implemented operation answers a
 * body valid against the published schema of its success status, and requests valid per the published
 * request schemas (every field, query parameter and header they declare) are accepted.
 */
import { readFileSync } from 'node:fs';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, type RunningService } from '../../../src/service/start.js';

const fixtures = new URL('../../fixtures/hosted-contract/', import.meta.url);
const schemas = JSON.parse(readFileSync(new URL('schemas.json', fixtures), 'utf8')) as { $id: string };
const { operations, not_implemented } = JSON.parse(readFileSync(new URL('operations.json', fixtures), 'utf8')) as {
  operations: { method: string; path: string; status: number; request?: string; response: string }[];
  not_implemented: string[];
};
const ajv = new Ajv2020({ allErrors: true, strict: false });
(addFormatsModule as unknown as (a: Ajv2020) => void)(ajv);
ajv.addSchema(schemas);
const validator = (name: string) => ajv.getSchema(`${schemas.$id}#/$defs/${name}`)!;

/** Asserts a value is valid against a published $defs entry, naming the problems when not. */
function expectValid(name: string, value: unknown, what = name): void {
  const validate = validator(name);
  expect(validate, `no schema ${name}`).toBeDefined();
  const ok = validate(value);
  expect(ok, `${what}: ${JSON.stringify(validate.errors)} in ${JSON.stringify(value).slice(0, 600)}`).toBe(true);
}

const op = (key: string) => {
  const found = operations.find((o) => `${o.method} ${o.path}` === key);
  if (!found) throw new Error(`no published operation ${key}`);
  return found;
};

let svc: RunningService;
let token: string;
let org: string;
const covered = new Set<string>();

interface Answer {
  status: number;
  body: any;
  headers: Headers;
}

/** One HTTP exchange with the running service (JSON in and out). */
async function send(
  method: string,
  path: string,
  opts: { body?: unknown; bearer?: string | null; headers?: Record<string, string> } = {},
): Promise<Answer> {
  const headers: Record<string, string> = { ...opts.headers };
  const bearer = opts.bearer === undefined ? token : opts.bearer;
  if (bearer) headers['authorization'] = `Bearer ${bearer}`;
  if (opts.body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(`${svc.url}${path}`, {
    method,
    headers,
    ...(opts.body !== undefined && { body: JSON.stringify(opts.body) }),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined, headers: res.headers };
}

/**
 * Calls a published operation ("METHOD /path/{param}") with a request body valid per its published
 * request schema (checked first), and checks the answer: the published success status and a body valid
 * against the published response schema.
 */
async function call(
  key: string,
  path: string,
  opts: { body?: unknown; bearer?: string | null; headers?: Record<string, string> } = {},
): Promise<any> {
  const o = op(key);
  if (opts.body !== undefined) {
    expect(o.request, `${key} takes no body`).toBeDefined();
    expectValid(o.request!, opts.body, `request of ${key}`);
  }
  const res = await send(o.method, path, opts);
  expect(res.status, `${key}: ${JSON.stringify(res.body)}`).toBe(o.status);
  expectValid(o.response, res.body, `answer of ${key}`);
  covered.add(key);
  return res.body;
}

beforeAll(async () => {
  svc = await startService({ seed: 'demo', seedSize: 20 });
  org = svc.organizationId;
  const res = await send('POST', '/api/v1/account/applications/token', {
    bearer: null,
    body: { client_id: svc.credentials.clientId, client_secret: svc.credentials.clientSecret },
  });
  token = res.body.access_token;
}, 120_000);
afterAll(async () => svc?.close());

describe('the published contract (Airbyte Agent API 0.9.0, facts in test/fixtures/hosted-contract)', () => {
  let crmDef: string;
  let filesDef: string;
  let connectorId: string;

  it('authentication: application, scoped and widget tokens, with the organization header', async () => {
    const creds = { client_id: svc.credentials.clientId, client_secret: svc.credentials.clientSecret };
    const t = await call('POST /api/v1/account/applications/token', '/api/v1/account/applications/token', {
      bearer: null,
      body: creds,
      headers: { 'x-organization-id': org },
    });
    expect(t.organization_id).toBe(org);
    const scoped = await call(
      'POST /api/v1/account/applications/scoped-token',
      '/api/v1/account/applications/scoped-token',
      { body: { workspace_name: 'contract-ws', region_id: null }, headers: { 'x-organization-id': org } },
    );
    const info = await call(
      'GET /api/v1/account/applications/scoped-token/info',
      '/api/v1/account/applications/scoped-token/info',
      { bearer: scoped.token, headers: { 'x-organization-id': org } },
    );
    expect(info).toMatchObject({ organization_id: org, workspace_name: 'contract-ws' });
    const widget = await call(
      'POST /api/v1/account/applications/widget-token',
      '/api/v1/account/applications/widget-token',
      {
        body: {
          workspace_name: 'contract-ws',
          allowed_origin: 'https://app.example.com',
          region_id: '645a183f-b12b-4c6e-8ad3-99e165603450',
          selected_source_template_tags: ['crm'],
          selected_source_template_tags_mode: 'all',
          selected_connection_template_tags: [],
          selected_connection_template_tags_mode: 'any',
        },
      },
    );
    expect(
      (await send('GET', '/api/v1/account/applications/scoped-token/info', { bearer: widget.token })).body,
    ).toEqual(info);
  });

  it('definitions: the catalog and one definition with its spec', async () => {
    const list = await call(
      'GET /api/v1/integrations/definitions/sources',
      '/api/v1/integrations/definitions/sources?name=r',
      { headers: { 'x-organization-id': org } },
    );
    crmDef = list.definitions.find((d: any) => d.name === 'CRM').sourceDefinitionId;
    filesDef = (await send('GET', '/api/v1/integrations/definitions/sources?name=files')).body.definitions[0]
      .sourceDefinitionId;
    const one = await call(
      'GET /api/v1/integrations/definitions/sources/{id}',
      `/api/v1/integrations/definitions/sources/${crmDef}`,
    );
    expect(one).toMatchObject({ id: crmDef, definition: { name: 'CRM' } });
    expect(one.definition.spec.connectionSpecification.type).toBe('object');
  });

  it('connectors: create with every published field, list by each workspace parameter, get, update', async () => {
    const listed = await call(
      'GET /api/v1/integrations/connectors',
      `/api/v1/integrations/connectors?workspace_name=default&definition_id=${crmDef}`,
    );
    const template = listed.data[0].summarized_source_template;
    expect(template.actor_definition_id).toBe(crmDef);
    const created = await call('POST /api/v1/integrations/connectors', '/api/v1/integrations/connectors', {
      headers: { 'x-organization-id': org },
      body: {
        name: 'Contract CRM',
        workspace_name: 'contract-ws',
        connector_type: 'crm',
        definition_id: crmDef,
        source_template_id: template.id,
        replication_config: { start_date: '2026-01-01T00:00:00Z' },
        credentials: { access_token: 'not-needed-here' },
        environment: { region: 'eu' },
        entities: [
          { entity: 'contacts', modes: ['read', 'write'] },
          { entity: 'deals', modes: null },
        ],
        server_side_oauth_secret_id: null,
        selected_connection_template_tags: ['nightly'],
        selected_connection_template_tags_mode: 'all',
      },
    });
    connectorId = created.id;
    expect(created).toMatchObject({
      name: 'Contract CRM',
      replication_config: { start_date: '2026-01-01T00:00:00Z' },
      entities: [
        { entity: 'contacts', modes: ['read', 'write'] },
        { entity: 'deals', modes: null },
      ],
    });
    expect(JSON.stringify(created)).not.toContain('not-needed-here');
    // Nullable fields given as null are the same as absent.
    const nulls = await call('POST /api/v1/integrations/connectors', '/api/v1/integrations/connectors', {
      body: {
        workspace_name: 'contract-ws',
        name: null,
        connector_type: null,
        definition_id: filesDef,
        source_template_id: null,
        replication_config: null,
        credentials: null,
        environment: null,
        entities: null,
      },
    });
    expect(nulls).toMatchObject({ name: 'Files - contract-ws', replication_config: {}, entities: null });
    for (const q of ['workspace_name', 'customer_name', 'external_user_id']) {
      const page = await call(
        'GET /api/v1/integrations/connectors',
        `/api/v1/integrations/connectors?${q}=contract-ws`,
      );
      expect(page.data.map((c: any) => c.id)).toContain(connectorId);
    }
    // Every query parameter is optional: without one, the connectors of every workspace.
    const all = await call('GET /api/v1/integrations/connectors', '/api/v1/integrations/connectors');
    expect(all.data.map((c: any) => c.id)).toEqual(expect.arrayContaining([connectorId, nulls.id]));
    const got = await call(
      'GET /api/v1/integrations/connectors/{id}',
      `/api/v1/integrations/connectors/${connectorId}`,
    );
    expect(got).toEqual(created);
    const updated = await call(
      'PUT /api/v1/integrations/connectors/{id}',
      `/api/v1/integrations/connectors/${connectorId}`,
      {
        body: { name: 'Contract CRM 2', replication_config: { start_date: '2026-02-01T00:00:00Z' }, entities: [] },
      },
    );
    expect(updated).toMatchObject({ name: 'Contract CRM 2', entities: [] });
    const same = await call(
      'PUT /api/v1/integrations/connectors/{id}',
      `/api/v1/integrations/connectors/${connectorId}`,
      {
        body: { name: null, replication_config: null, entities: null },
      },
    );
    expect(same).toMatchObject({ name: 'Contract CRM 2', replication_config: { start_date: '2026-02-01T00:00:00Z' } });
    await call(
      'GET /api/v1/integrations/connectors/{id}/inspect',
      `/api/v1/integrations/connectors/${nulls.id}/inspect`,
    );
  });

  it('inspect and execute, with every published execute field', async () => {
    const report = await call(
      'GET /api/v1/integrations/connectors/{id}/inspect',
      `/api/v1/integrations/connectors/${connectorId}/inspect`,
      { headers: { 'x-organization-id': org } },
    );
    expect(report.source_config_template_id).toMatch(/^[0-9a-f-]{36}$/);
    const base = `/api/v1/integrations/connectors/${connectorId}/execute`;
    await call('POST /api/v1/integrations/connectors/{id}/execute', base, {
      body: { entity: 'contacts', action: 'create', params: { properties: { email: 'contract@example.com' } } },
    });
    const listed = await call('POST /api/v1/integrations/connectors/{id}/execute', base, {
      headers: { 'x-organization-id': org },
      body: {
        entity: 'contacts',
        action: 'list',
        params: { limit: 1 },
        select_fields: null,
        exclude_fields: null,
        skip_truncation: false,
        intent: 'check the published contract',
      },
    });
    expect(listed.result).toHaveLength(1);
    // select_fields takes priority: exclude_fields is then ignored, as the published contract says.
    const both = await call('POST /api/v1/integrations/connectors/{id}/execute', base, {
      body: { entity: 'contacts', action: 'list', params: { limit: 1 }, select_fields: ['id'], exclude_fields: ['id'] },
    });
    expect(Object.keys(both.result[0])).toEqual(['id']);
  });

  it('workspaces: list with every filter, stats, get, update with nulls, delete', async () => {
    const page = await call(
      'GET /api/v1/workspaces',
      '/api/v1/workspaces?name_contains=contract&status=active&limit=5',
      { headers: { 'x-organization-id': org } },
    );
    const ws = page.data.find((w: any) => w.name === 'contract-ws');
    await call('GET /api/v1/workspaces/stats', '/api/v1/workspaces/stats');
    await call('GET /api/v1/workspaces/{workspace_id}', `/api/v1/workspaces/${ws.id}`);
    const updated = await call('PUT /api/v1/workspaces/{workspace_id}', `/api/v1/workspaces/${ws.id}`, {
      body: { name: null, status: null, cache_enabled: true },
    });
    expect(updated).toMatchObject({ name: 'contract-ws', status: 'active', cache_enabled: true });
    await call('DELETE /api/v1/integrations/connectors/{id}', `/api/v1/integrations/connectors/${connectorId}`);
    await call('DELETE /api/v1/workspaces/{workspace_id}', `/api/v1/workspaces/${ws.id}`);
  });

  it('skills: list, search and docs with organization_id and workspace_id', async () => {
    const workspaces = (await send('GET', '/api/v1/workspaces?name_contains=default')).body.data;
    const q = `organization_id=${org}&workspace_id=${workspaces[0].id}`;
    const list = await call('GET /api/v1/skills', `/api/v1/skills?limit=2&${q}`);
    await call('GET /api/v1/skills', `/api/v1/skills?limit=2&cursor=${list.next_cursor}&${q}`);
    await call('GET /api/v1/skills/search', `/api/v1/skills/search?query=crm&limit=5&${q}`);
    const crm = (await send('GET', `/api/v1/skills/search?query=crm`)).body.data[0];
    const docs = await call('GET /api/v1/skills/docs', `/api/v1/skills/docs?id=${crm.id}&${q}`);
    await call('GET /api/v1/skills/docs', `/api/v1/skills/docs?id=${crm.id}&section=${docs.outline[1].id}&${q}`);
  });

  it('errors answer the published ApiErrorResponse', async () => {
    const cases: [string, string, Record<string, string>, number][] = [
      ['GET', '/api/v1/workspaces/00000000-0000-4000-8000-000000000000', {}, 404],
      ['GET', '/api/v1/workspaces?limit=0', {}, 400],
      ['GET', '/api/v1/workspaces', { 'x-organization-id': '00000000-0000-4000-8000-000000000000' }, 403],
      ['GET', '/api/v1/workspaces', { 'x-organization-id': 'not-a-uuid' }, 400],
      ['GET', `/api/v1/skills?organization_id=00000000-0000-4000-8000-000000000000`, {}, 403],
    ];
    for (const [method, path, headers, status] of cases) {
      const res = await send(method, path, { headers });
      expect(res.status, path).toBe(status);
      expectValid('ApiErrorResponse', res.body, `${status} of ${path}`);
    }
    const unauthorized = await send('GET', '/api/v1/workspaces', { bearer: null });
    expect(unauthorized.status).toBe(401);
    expectValid('ApiErrorResponse', unauthorized.body);
  });

  it('answers 404 not_found for the published operations it does not implement (docs/service.md says why)', async () => {
    expect(operations.length + not_implemented.length).toBe(38);
    for (const key of not_implemented) {
      const [method, path] = key.split(' ') as [string, string];
      const url = path.replace(/\{[a-z_]+\}/g, '00000000-0000-4000-8000-000000000000');
      const res = await send(method, url, method === 'GET' || method === 'DELETE' ? {} : { body: {} });
      expect(res.status, key).toBe(404);
      expectValid('ApiErrorResponse', res.body, key);
    }
  });

  it('covered every implemented operation of the published document', () => {
    expect([...covered].sort()).toEqual(operations.map((o) => `${o.method} ${o.path}`).sort());
  });
});

describe('scoped and widget tokens', () => {
  it('reach only the scoped-token info; an application token cannot read it', async () => {
    const scoped = (
      await send('POST', '/api/v1/account/applications/scoped-token', { body: { workspace_name: 'default' } })
    ).body.token;
    for (const path of ['/api/v1/workspaces', '/api/v1/integrations/definitions/sources', '/api/v1/skills']) {
      const res = await send('GET', path, { bearer: scoped });
      expect(res.status, path).toBe(403);
      expect(res.body.errors[0]).toMatchObject({ error_code: 'forbidden', field: 'header.authorization' });
    }
    const app = await send('GET', '/api/v1/account/applications/scoped-token/info');
    expect(app.status).toBe(403);
  });
});
