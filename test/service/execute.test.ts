import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ChangeEvent } from '../../src/service/core/service-context.js';
import { createTestService, type TestService } from './helpers.js';
import { echoConnector, echoDb, echoMigrations } from './support/echo-connector.js';

let svc: TestService;
let id: string;
beforeEach(async () => {
  svc = await createTestService({ connectorTypes: [echoConnector], migrations: echoMigrations });
  id = await svc.createConnector('echo');
});
afterEach(async () => {
  await svc.close();
});

const create = (label: string) =>
  svc.execute(id, { entity: 'things', action: 'create', params: { properties: { label } } });

describe('POST /api/v1/integrations/connectors/:id/execute', () => {
  it('answers the envelope, with schema defaults applied to params', async () => {
    await create('first');
    const res = await svc.execute(id, { entity: 'things', action: 'list' });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toEqual({
      status: 'success',
      result: [{ id: '1', properties: { label: 'first', secret: 'x' }, meta: { limit: 5 } }],
      connector_metadata: { has_next_page: false },
      execution_metadata: { connector_instance_id: `source_id:${id}`, execution_time_ms: expect.any(Number) },
    });
    expect(Number.isInteger(body.execution_metadata.execution_time_ms)).toBe(true);
  });

  it('always answers connector_metadata as an object', async () => {
    const res = await create('x');
    expect(res.json().connector_metadata).toEqual({});
  });

  it('applies select_fields and exclude_fields to each record', async () => {
    await create('a');
    await create('b');
    const sel = await svc.execute(id, {
      entity: 'things',
      action: 'list',
      params: {},
      select_fields: ['id', 'properties.label', 'nope.deeper'],
    });
    expect(sel.json().result).toEqual([
      { id: '1', properties: { label: 'a' } },
      { id: '2', properties: { label: 'b' } },
    ]);
    const exc = await svc.execute(id, {
      entity: 'things',
      action: 'list',
      params: {},
      exclude_fields: ['properties.secret', 'meta'],
    });
    expect(exc.json().result).toEqual([
      { id: '1', properties: { label: 'a' } },
      { id: '2', properties: { label: 'b' } },
    ]);
    const one = await svc.execute(id, {
      entity: 'things',
      action: 'create',
      params: { properties: { label: 'c' } },
      select_fields: ['id'],
    });
    expect(one.json().result).toEqual({ id: '3' });
  });

  it('selects and excludes own fields only: prototype names are fields the records do not have', async () => {
    await create('a');
    const names = ['constructor', 'toString', '__proto__', 'hasOwnProperty', 'constructor.name', '__proto__.x'];
    for (const name of names) {
      const res = await svc.execute(id, {
        entity: 'things',
        action: 'list',
        select_fields: [name, 'id'],
        exclude_fields: ['meta', name],
      });
      expect(res.statusCode, `${name}: ${res.body}`).toBe(200);
      expect(res.json().result).toEqual([{ id: '1' }]);
      const only = await svc.execute(id, { entity: 'things', action: 'list', select_fields: [name] });
      expect(only.statusCode, `${name}: ${only.body}`).toBe(200);
      expect(only.json().result).toEqual([{}]);
    }
    for (const [entity, action] of [
      ['constructor', 'list'],
      ['things', 'constructor'],
      ['__proto__', 'toString'],
    ]) {
      const res = await svc.execute(id, { entity: entity!, action: action! });
      expect(res.statusCode).toBe(400);
      expect(res.json().errors[0].error_code).toBe(entity === 'things' ? 'unknown_action' : 'unknown_entity');
    }
  });

  it('names the valid entities for an unknown entity', async () => {
    const res = await svc.execute(id, { entity: 'widgets', action: 'list' });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors).toEqual([
      {
        field: 'entity',
        error_code: 'unknown_entity',
        message: expect.stringContaining('valid entities: things, files'),
        details: { valid_entities: ['things', 'files'] },
      },
    ]);
  });

  it('names the valid actions for an unknown action', async () => {
    const res = await svc.execute(id, { entity: 'things', action: 'delete' });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors[0]).toMatchObject({
      field: 'action',
      error_code: 'unknown_action',
      details: { valid_actions: ['list', 'create'] },
    });
  });

  it('reports every params problem with its params.<path> field', async () => {
    const res = await svc.execute(id, {
      entity: 'things',
      action: 'create',
      params: { properties: { kind: 'z', extra: 1 }, other: true },
    });
    expect(res.statusCode).toBe(400);
    const fields = res
      .json()
      .errors.map((e: { field: string }) => e.field)
      .sort();
    expect(fields).toEqual([
      'params.other',
      'params.properties.extra',
      'params.properties.kind',
      'params.properties.label',
    ]);
    const kind = res.json().errors.find((e: { field: string }) => e.field === 'params.properties.kind');
    expect(kind.message).toContain('must be one of: "a", "b"');
  });

  it('rejects a mistyped param and an out-of-range one', async () => {
    const res = await svc.execute(id, { entity: 'things', action: 'list', params: { limit: 'ten' } });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors[0]).toMatchObject({ field: 'params.limit', error_code: 'validation_error' });
    const big = await svc.execute(id, { entity: 'things', action: 'list', params: { limit: 11 } });
    expect(big.statusCode).toBe(400);
    expect(big.json().errors[0].field).toBe('params.limit');
  });

  it('validates the request body itself', async () => {
    const res = await svc.execute(id, { action: 'list', params: [], surprise: 1 });
    expect(res.statusCode).toBe(400);
    const fields = res
      .json()
      .errors.map((e: { field: string }) => e.field)
      .sort();
    expect(fields).toEqual(['entity', 'params', 'surprise']);
  });

  it("answers 404 for an unknown connector and for another organization's connector", async () => {
    const unknown = await svc.execute('00000000-0000-4000-8000-000000000000', { entity: 'things', action: 'list' });
    expect(unknown.statusCode).toBe(404);
    const other = await svc.createOrg();
    const res = await svc.execute(id, { entity: 'things', action: 'list' }, other);
    expect(res.statusCode).toBe(404);
    // Exactly what an id that does not exist gets: nothing tells the other organization it exists.
    const msg = `connector ${id} not found`;
    expect(res.json()).toEqual({
      message: msg,
      errors: [{ field: 'path.id', message: msg, error_code: 'not_found', details: null }],
    });
    expect(unknown.json().errors[0]).toMatchObject({ field: 'path.id', error_code: 'not_found' });
  });

  it('refuses execute while the workspace is inactive', async () => {
    const put = await svc.app.inject({
      method: 'PUT',
      url: `/api/v1/workspaces/${svc.org.defaultWorkspaceId}`,
      headers: await svc.auth(),
      payload: { status: 'inactive' },
    });
    expect(put.statusCode).toBe(200);
    const res = await svc.execute(id, { entity: 'things', action: 'list' });
    expect(res.statusCode).toBe(403);
    expect(res.json().errors[0].error_code).toBe('workspace_inactive');
    expect(res.json().message).toContain('workspace "default" is inactive');
  });

  it('answers download bytes with Content-Type and Content-Disposition', async () => {
    const res = await svc.execute(id, { entity: 'files', action: 'download', params: { file_id: 'report' } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(res.headers['content-disposition']).toBe('attachment; filename="report.txt"');
    expect(res.body).toBe('content of report');
  });

  it('never answers an empty 200 for a download', async () => {
    const res = await svc.execute(id, { entity: 'files', action: 'download', params: { file_id: 'empty' } });
    expect(res.statusCode).toBe(404);
    expect(res.json().errors[0].error_code).toBe('not_found');
    const missing = await svc.execute(id, { entity: 'files', action: 'download', params: { file_id: 'missing' } });
    expect(missing.statusCode).toBe(404);
    expect(missing.json().message).toBe('file missing not found');
  });

  it('tells change listeners about writes', async () => {
    const events: ChangeEvent[] = [];
    const off = svc.app.service.onChange((e) => events.push(e));
    await create('a');
    off();
    await create('b');
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      entity: 'things',
      ids: ['1'],
      connector: { id, organizationId: svc.org.organizationId },
    });
  });

  it('serializes concurrent writes that use store.transaction: no lost or duplicate ids', async () => {
    const results = await Promise.all(Array.from({ length: 16 }, (_, i) => create(`c${i}`)));
    expect(results.every((r) => r.statusCode === 200)).toBe(true);
    const ids = results.map((r) => r.json().result.id);
    expect(new Set(ids).size).toBe(16);
    const list = await svc.execute(id, { entity: 'things', action: 'list', params: { limit: 10 } });
    expect(list.json().result).toHaveLength(10);
    const rows = await echoDb(svc.store.db)
      .selectFrom('echo_things')
      .select('label')
      .where('connector_id', '=', id)
      .execute();
    expect(rows.map((r) => r.label).sort()).toEqual(Array.from({ length: 16 }, (_, i) => `c${i}`).sort());
  });

  it('a throwing change listener does not fail the committed write', async () => {
    svc.app.service.onChange(() => {
      throw new Error('listener broke');
    });
    const res = await create('a');
    expect(res.statusCode).toBe(200);
  });
});
