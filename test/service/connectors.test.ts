import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestService, type TestService } from './helpers.js';
import { echoConnector, echoDb, echoMigrations } from './support/echo-connector.js';

let svc: TestService;
let headers: Record<string, string>;
beforeEach(async () => {
  svc = await createTestService({ connectorTypes: [echoConnector], migrations: echoMigrations });
  headers = await svc.auth();
});
afterEach(async () => {
  await svc.close();
});

const base = '/api/v1/integrations/connectors';
const defId = echoConnector.definition.id;

describe('connectors', () => {
  it('creates by connector_type (slug or name, any case) and by definition_id', async () => {
    for (const payload of [
      { workspace_name: 'default', connector_type: 'ECHO' },
      { workspace_name: 'default', connector_type: 'echo test', name: 'mine' },
      { workspace_name: 'default', definition_id: defId },
    ]) {
      const res = await svc.app.inject({ method: 'POST', url: base, headers, payload });
      expect(res.statusCode, JSON.stringify(payload)).toBe(200);
      expect(res.json()).toEqual({
        id: expect.stringMatching(/^[0-9a-f-]{36}$/),
        name: payload.name ?? 'Echo Test - default',
        source_template: expect.objectContaining({ source_definition_id: defId, name: 'Echo Test' }),
        replication_config: {},
        entities: null,
        workspace_id: svc.org.defaultWorkspaceId,
        definition_id: defId,
        definition_name: 'Echo Test',
        created_at: expect.any(String),
        updated_at: expect.any(String),
      });
    }
  });

  it('answers 422 when neither connector_type nor definition_id is given', async () => {
    const res = await svc.app.inject({ method: 'POST', url: base, headers, payload: { workspace_name: 'default' } });
    expect(res.statusCode).toBe(422);
    expect(res.json()).toMatchObject({
      message: 'One of connector_type or definition_id must be provided',
      errors: [{ field: 'body', error_code: 'value_error' }],
    });
  });

  it('answers 404 for an unknown workspace, definition or type', async () => {
    const cases = [
      [{ workspace_name: 'nope', connector_type: 'echo' }, 'workspace_name'],
      [{ workspace_name: 'default', definition_id: '00000000-0000-4000-8000-000000000000' }, 'definition_id'],
      [{ workspace_name: 'default', connector_type: 'nosuch' }, 'connector_type'],
    ] as const;
    for (const [payload, field] of cases) {
      const res = await svc.app.inject({ method: 'POST', url: base, headers, payload });
      expect(res.statusCode).toBe(404);
      expect(res.json().errors[0]).toMatchObject({ field, error_code: 'not_found' });
    }
  });

  it('answers 400 when connector_type and definition_id name different types', async () => {
    const res = await svc.app.inject({
      method: 'POST',
      url: base,
      headers,
      payload: { workspace_name: 'default', definition_id: defId, connector_type: 'crm' },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors[0]).toMatchObject({ field: 'connector_type', error_code: 'validation_error' });
  });

  it('rejects a body without workspace_name or with unknown fields', async () => {
    const res = await svc.app.inject({
      method: 'POST',
      url: base,
      headers,
      payload: { connector_type: 'echo', colour: 'red' },
    });
    expect(res.statusCode).toBe(400);
    expect(
      res
        .json()
        .errors.map((e: { field: string }) => e.field)
        .sort(),
    ).toEqual(['colour', 'workspace_name']);
  });

  it('lists by workspace name or id, filtered by definition', async () => {
    const id = await svc.createConnector('echo');
    const byName = await svc.app.inject({
      method: 'GET',
      url: `${base}?workspace_name=default&definition_id=${defId}`,
      headers,
    });
    expect(byName.statusCode).toBe(200);
    expect(byName.json().data.map((c: { id: string }) => c.id)).toEqual([id]);
    const byId = await svc.app.inject({
      method: 'GET',
      url: `${base}?workspace_id=${svc.org.defaultWorkspaceId}`,
      headers,
    });
    expect(byId.json().data[0]).toMatchObject({
      id,
      workspace_id: svc.org.defaultWorkspaceId,
      definition_id: defId,
      definition_name: 'Echo Test',
    });
    const otherDef = await svc.app.inject({
      method: 'GET',
      url: `${base}?workspace_name=default&definition_id=00000000-0000-4000-8000-000000000000`,
      headers,
    });
    expect(otherDef.json()).toEqual({ data: [] });
  });

  it('lists every live workspace without a workspace parameter, and answers 404 for an unknown one', async () => {
    const a = await svc.createConnector('echo');
    await svc.app.inject({
      method: 'POST',
      url: '/api/v1/account/applications/scoped-token',
      headers,
      payload: { workspace_name: 'other' },
    });
    const b = await svc.createConnector('echo', { workspace: 'other' });
    const none = await svc.app.inject({ method: 'GET', url: base, headers });
    expect(none.statusCode).toBe(200);
    expect(none.json().data.map((c: { id: string }) => c.id)).toEqual([a, b]);
    const ofDef = await svc.app.inject({ method: 'GET', url: `${base}?definition_id=${defId}`, headers });
    expect(ofDef.json().data).toHaveLength(2);
    const unknown = await svc.app.inject({ method: 'GET', url: `${base}?workspace_name=ghost`, headers });
    expect(unknown.statusCode).toBe(404);
  });

  it('gets one connector and never shows credentials', async () => {
    const create = await svc.app.inject({
      method: 'POST',
      url: base,
      headers,
      payload: { workspace_name: 'default', connector_type: 'echo', credentials: { api_key: 'sk-live-123' } },
    });
    expect(create.body).not.toContain('sk-live-123');
    const id = create.json().id;
    const res = await svc.app.inject({ method: 'GET', url: `${base}/${id}`, headers });
    expect(res.statusCode).toBe(200);
    expect(res.json().id).toBe(id);
    expect(res.body).not.toContain('sk-live-123');
    const list = await svc.app.inject({ method: 'GET', url: `${base}?workspace_name=default`, headers });
    expect(list.body).not.toContain('sk-live-123');
    // Stored, though (so a real type could use it).
    const row = await svc.store.db
      .selectFrom('connectors')
      .select('credentials')
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect(JSON.parse(row.credentials)).toEqual({ api_key: 'sk-live-123' });
  });

  it('a new connector starts empty', async () => {
    const a = await svc.createConnector('echo');
    await svc.execute(a, { entity: 'things', action: 'create', params: { properties: { label: 'x' } } });
    const b = await svc.createConnector('echo');
    const res = await svc.execute(b, { entity: 'things', action: 'list' });
    expect(res.json().result).toEqual([]);
  });

  it('deletes a connector and its data; then 404', async () => {
    const id = await svc.createConnector('echo');
    await svc.execute(id, { entity: 'things', action: 'create', params: { properties: { label: 'x' } } });
    const del = await svc.app.inject({ method: 'DELETE', url: `${base}/${id}`, headers });
    expect(del.statusCode).toBe(202);
    expect(del.json()).toEqual({ job_id: expect.stringMatching(/^[0-9a-f-]{36}$/), id, deleted: true });
    const rows = await echoDb(svc.store.db)
      .selectFrom('echo_things')
      .selectAll()
      .where('connector_id', '=', id)
      .execute();
    expect(rows).toEqual([]);
    expect((await svc.app.inject({ method: 'GET', url: `${base}/${id}`, headers })).statusCode).toBe(404);
    expect((await svc.app.inject({ method: 'DELETE', url: `${base}/${id}`, headers })).statusCode).toBe(404);
  });

  it('isolates organizations: another org gets 404 and sees nothing', async () => {
    const id = await svc.createConnector('echo');
    const other = await svc.createOrg();
    const oh = await other.auth();
    expect((await svc.app.inject({ method: 'GET', url: `${base}/${id}`, headers: oh })).statusCode).toBe(404);
    expect((await svc.app.inject({ method: 'DELETE', url: `${base}/${id}`, headers: oh })).statusCode).toBe(404);
    const list = await svc.app.inject({ method: 'GET', url: `${base}?workspace_name=default`, headers: oh });
    expect(list.json()).toEqual({ data: [] });
    const byWsId = await svc.app.inject({
      method: 'GET',
      url: `${base}?workspace_id=${svc.org.defaultWorkspaceId}`,
      headers: oh,
    });
    expect(byWsId.statusCode).toBe(404);
    // Still there for its owner.
    expect((await svc.app.inject({ method: 'GET', url: `${base}/${id}`, headers })).statusCode).toBe(200);
  });
});
