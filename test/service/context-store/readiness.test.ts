import { afterEach, describe, expect, it } from 'vitest';
import type { TestService } from '../helpers.js';
import { createPeopleService, inspect, search, searchIds, waitFor, waitForStatus } from './support/harness.js';
import { insertPeople } from './support/people-connector.js';
import { csDb } from '../../../src/service/context-store/tables.js';

let svc: TestService;
afterEach(async () => svc?.close());

const people = (n: number) =>
  Array.from({ length: n }, (_, i) => ({
    properties: { firstname: `P${i}`, lastname: 'Test', email: `p${i}@example.com`, city: 'Oslo', amount: String(i) },
  }));

describe('context store readiness', () => {
  it('walks Loading → Building Preview → Preview → Ready, refusing search with 409 until Preview', async () => {
    svc = await createPeopleService({ hold: 'Loading', batchSize: 10, previewSize: 30 });
    const id = await svc.createConnector('people');
    await insertPeople(svc, id, people(100));

    const loading = await waitForStatus(svc, id, 'Loading');
    expect(loading.context_store_readiness.configured_cache_entities[0]).toMatchObject({
      entity: 'people',
      status: 'Loading',
      ready_for_search: false,
      entity_count: 0,
    });
    const refused = await search(svc, id, { query: {} });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().errors[0]).toMatchObject({
      error_code: 'context_store_not_ready',
      details: { status: 'Loading', ready_for_search: false },
    });
    expect(refused.json().message).toMatch(/Loading/);
    // get keeps working while the store is not ready.
    expect((await svc.execute(id, { entity: 'people', action: 'get', params: { id: '1' } })).statusCode).toBe(200);

    svc.app.contextStore.setHold('Building Preview');
    const building = await waitForStatus(svc, id, 'Building Preview');
    const buildingEntity = building.context_store_readiness.configured_cache_entities[0];
    expect(buildingEntity.ready_for_search).toBe(false);
    expect(buildingEntity.entity_count).toBeGreaterThan(0);
    expect(buildingEntity.entity_count).toBeLessThan(30);
    const refused2 = await search(svc, id, { query: {} });
    expect(refused2.statusCode).toBe(409);
    expect(refused2.json().message).toMatch(/Building Preview/);

    svc.app.contextStore.setHold('Preview');
    const preview = await waitForStatus(svc, id, 'Preview');
    const previewEntity = preview.context_store_readiness.configured_cache_entities[0];
    expect(previewEntity.ready_for_search).toBe(true);
    expect(previewEntity.entity_count).toBeGreaterThanOrEqual(30);
    expect(previewEntity.entity_count).toBeLessThan(100);
    const partial = await searchIds(svc, id, { query: {} });
    expect(partial.ids.length).toBe(previewEntity.entity_count);

    svc.app.contextStore.setHold(null);
    const ready = await waitForStatus(svc, id, 'Ready');
    expect(ready.context_store_readiness.configured_cache_entities[0]).toMatchObject({
      status: 'Ready',
      ready_for_search: true,
      entity_count: 100,
    });
    expect((await searchIds(svc, id, { query: {} })).ids).toHaveLength(100);
  });

  it('goes straight to Ready for an empty entity and reports null status for a type without a context store', async () => {
    svc = await createPeopleService();
    const id = await svc.createConnector('people');
    const ready = await waitForStatus(svc, id, 'Ready');
    expect(ready.context_store_readiness.configured_cache_entities[0].entity_count).toBe(0);
    const files = await svc.createConnector('files');
    const report = await inspect(svc, files);
    expect(report.context_store_status).toBeNull();
    expect(report.context_store_readiness).toBeNull();
  });

  it('applies writes after Ready within the lag bound (create, update, archive)', async () => {
    svc = await createPeopleService();
    const id = await svc.createConnector('people');
    await waitForStatus(svc, id, 'Ready');
    const created = await svc.execute(id, {
      entity: 'people',
      action: 'create',
      params: { properties: { firstname: 'Zelda', city: 'Bergen' }, companies: ['7'] },
    });
    const personId = created.json().result.id;
    // Polling with a deadline (the stated bound is 250 ms; the deadline is generous so a busy machine does not fail it).
    await waitFor(
      'created person indexed',
      async () =>
        (await searchIds(svc, id, { query: { filter: { eq: { 'properties.firstname': 'Zelda' } } } })).ids.includes(
          personId,
        ),
      5000,
    );
    await svc.execute(id, {
      entity: 'people',
      action: 'update',
      params: { id: personId, properties: { city: 'Tromsø' } },
    });
    await waitFor(
      'update indexed',
      async () =>
        (await searchIds(svc, id, { query: { filter: { eq: { 'properties.city': 'Tromsø' } } } })).ids.includes(
          personId,
        ),
      5000,
    );
    expect((await searchIds(svc, id, { query: { filter: { eq: { 'properties.city': 'Bergen' } } } })).ids).toEqual([]);
    await svc.execute(id, { entity: 'people', action: 'archive', params: { id: personId } });
    await waitFor(
      'archive indexed',
      async () => (await searchIds(svc, id, { query: { filter: { eq: { archived: true } } } })).ids.includes(personId),
      5000,
    );
  });

  it('applies a bulk change notification of many records (more than one flush chunk)', async () => {
    svc = await createPeopleService();
    const id = await svc.createConnector('people');
    const ready = await waitForStatus(svc, id, 'Ready');
    await insertPeople(svc, id, people(1234));
    const connector = {
      id,
      organizationId: svc.org.organizationId,
      workspaceId: ready.workspace_id,
      definitionId: ready.source_definition_id,
      name: ready.name,
    };
    svc.app.service.emitChange({
      connector,
      entity: 'people',
      ids: Array.from({ length: 1234 }, (_, i) => String(i + 1)),
    });
    await waitFor(
      'bulk change indexed',
      async () => (await inspect(svc, id)).context_store_readiness.configured_cache_entities[0].entity_count === 1234,
      10_000,
    );
    expect((await searchIds(svc, id, { query: { filter: { eq: { 'properties.firstname': 'P1233' } } } })).ids).toEqual([
      '1234',
    ]);
  });

  it('indexes a connector created while the service runs and drops its index when the connector is deleted', async () => {
    svc = await createPeopleService({ batchSize: 7, previewSize: 10 });
    const id = await svc.createConnector('people');
    await insertPeople(svc, id, people(25));
    await waitForStatus(svc, id, 'Ready');
    expect((await searchIds(svc, id, { query: {} })).ids).toHaveLength(25);
    const del = await svc.app.inject({
      method: 'DELETE',
      url: `/api/v1/integrations/connectors/${id}`,
      headers: await svc.auth(),
    });
    expect(del.statusCode).toBe(202);
    const left = await csDb(svc.store.db)
      .selectFrom('cs_docs')
      .select((eb) => eb.fn.countAll().as('n'))
      .where('connector_id', '=', id)
      .executeTakeFirstOrThrow();
    expect(Number(left.n)).toBe(0);
  });

  it('builds an entity that is not yet searchable before continuing one already at Preview', async () => {
    // Steps 300 ms apart: the state is read straight after B turns Preview, long before A's next step.
    svc = await createPeopleService({ hold: 'Preview', batchSize: 10, previewSize: 20, batchDelayMs: 300 });
    const a = await svc.createConnector('people');
    await insertPeople(svc, a, people(25));
    await waitForStatus(svc, a, 'Preview');
    const resume = svc.app.contextStore.pauseBuilds();
    svc.app.contextStore.setHold(null);
    const b = await svc.createConnector('people');
    await insertPeople(svc, b, people(25));
    await waitForStatus(svc, b, 'Loading');
    resume();
    const states = () =>
      csDb(svc.store.db).selectFrom('cs_state').select(['connector_id', 'status', 'scanned']).execute();
    const atPreview = await waitFor('B at Preview', async () => {
      const rows = await states();
      return rows.find((r) => r.connector_id === b)?.status === 'Preview' ? rows : null;
    });
    // Round robin over both would have stepped A between B's two steps.
    expect(atPreview?.find((r) => r.connector_id === a)).toMatchObject({ status: 'Preview', scanned: 20 });
    await waitForStatus(svc, a, 'Ready');
    await waitForStatus(svc, b, 'Ready');
    expect((await searchIds(svc, b, { query: {} })).ids).toHaveLength(25);
  });
});
