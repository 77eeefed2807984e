import { afterEach, describe, expect, it } from 'vitest';
import { filesConnector } from '../../../src/service/connectors/files/index.js';
import { createTestService, type TestService } from '../helpers.js';
import { createPeopleService, inspect, waitForStatus } from '../context-store/support/harness.js';
import { peopleConnector } from '../context-store/support/people-connector.js';

let svc: TestService;
afterEach(async () => svc?.close());

describe('GET /integrations/connectors/:id/inspect', () => {
  it('describes a connector: identity, docs skill id, readiness and its action catalogue', async () => {
    svc = await createPeopleService({ hold: 'Loading' });
    const id = await svc.createConnector('people', { name: 'My people' });
    const report = await inspect(svc, id);
    expect(report).toMatchObject({
      connector_id: id,
      name: 'My people',
      workspace_id: svc.org.defaultWorkspaceId,
      organization_id: svc.org.organizationId,
      source_definition_id: peopleConnector.definition.id,
      source_definition_name: 'People',
      docs_skill_id: `connector-source:${id}`,
      context_store_status: 'Loading',
    });
    expect(report.context_store_readiness.configured_cache_entities).toEqual([
      {
        entity: 'people',
        status: 'Loading',
        ready_for_search: false,
        supported: true,
        entity_count: 0,
        updated_at: expect.anything(),
      },
    ]);
    expect(report.warnings.join(' ')).toMatch(/people/);
    expect(report.actions).toHaveLength(peopleConnector.actions.length);
    expect(report.actions).toContainEqual({
      entity: 'people',
      action: 'context_store_search',
      required_params: ['query'],
      optional_params: ['limit', 'cursor', 'fields'],
      write: false,
    });

    svc.app.contextStore.setHold(null);
    const ready = await waitForStatus(svc, id, 'Ready');
    expect(ready.warnings).toEqual([]);
  });

  it('lists the Files actions with their required and optional params and no context store', async () => {
    svc = await createPeopleService();
    const id = await svc.createConnector('files');
    const report = await inspect(svc, id);
    expect(report.context_store_status).toBeNull();
    expect(report.actions).toContainEqual({
      entity: 'files',
      action: 'download',
      required_params: ['fileId'],
      optional_params: [],
      write: false,
    });
    expect(report.actions).toContainEqual({
      entity: 'files',
      action: 'list',
      required_params: [],
      optional_params: ['offset', 'limit', 'folderId'],
      write: false,
    });
    expect(report.actions).toHaveLength(filesConnector.actions.length);
  });

  it('says which actions write (write: true) and which only read (write: false)', async () => {
    svc = await createTestService();
    const crm = await inspect(svc, await svc.createConnector('crm'));
    const files = await inspect(svc, await svc.createConnector('files'));
    const writes = (r: { actions: { entity: string; action: string; write: boolean }[] }) =>
      r.actions.filter((a) => a.write).map((a) => `${a.entity}.${a.action}`);
    expect(writes(files).sort()).toEqual(['files.create', 'folders.create']);
    expect(writes(crm)).toContain('contacts.create');
    expect(writes(crm)).toContain('deals.update');
    expect(writes(crm)).toContain('notes.delete');
    expect(writes(crm)).toContain('associations.create');
    expect(writes(crm)).toContain('associations.delete');
    for (const a of crm.actions)
      if (['list', 'get', 'api_search', 'context_store_search'].includes(a.action))
        expect(a.write, a.action).toBe(false);
    expect(crm.actions.every((a: { write: unknown }) => typeof a.write === 'boolean')).toBe(true);
  });

  it("answers 404 for an unknown connector and for another organization's connector", async () => {
    svc = await createPeopleService();
    const id = await svc.createConnector('files');
    const other = await svc.createOrg();
    for (const [target, headers] of [
      [id, await other.auth()],
      ['00000000-0000-4000-8000-000000000000', await svc.auth()],
    ] as const) {
      const res = await svc.app.inject({
        method: 'GET',
        url: `/api/v1/integrations/connectors/${target}/inspect`,
        headers,
      });
      expect(res.statusCode).toBe(404);
      expect(res.json().errors[0].error_code).toBe('not_found');
    }
    const noToken = await svc.app.inject({ method: 'GET', url: `/api/v1/integrations/connectors/${id}/inspect` });
    expect(noToken.statusCode).toBe(401);
  });
});
