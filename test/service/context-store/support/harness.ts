import type { ContextStoreTimings } from '../../../../src/service/context-store/index.js';
import { createTestService, type TestService } from '../../helpers.js';
import { peopleConnector, peopleMigration } from './people-connector.js';

/** A test service offering the People type (and Files), with the given context store timings. */
export async function createPeopleService(timings: ContextStoreTimings = {}): Promise<TestService> {
  const { filesConnector } = await import('../../../../src/service/connectors/files/index.js');
  return createTestService({
    connectorTypes: [peopleConnector, filesConnector],
    migrations: [peopleMigration],
    contextStore: { flushIntervalMs: 10, ...timings },
  });
}

/** GET inspect of a connector as the first organization. */
export async function inspect(svc: TestService, id: string): Promise<any> {
  const res = await svc.app.inject({
    method: 'GET',
    url: `/api/v1/integrations/connectors/${id}/inspect`,
    headers: await svc.auth(),
  });
  if (res.statusCode !== 200) throw new Error(`inspect failed: ${res.statusCode} ${res.body}`);
  return res.json();
}

/** Polls until check() returns a truthy value or the deadline passes (then fails with the last value). */
export async function waitFor<T>(what: string, check: () => Promise<T>, deadlineMs = 10_000): Promise<T> {
  const until = Date.now() + deadlineMs;
  let last: T = await check();
  while (!last) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
    last = await check();
  }
  return last;
}

/** Waits until the people entity of a connector has this context store status. */
export async function waitForStatus(svc: TestService, id: string, status: string): Promise<any> {
  return waitFor(`status ${status}`, async () => {
    const report = await inspect(svc, id);
    return report.context_store_status === status ? report : null;
  });
}

/** Runs context_store_search on people; returns the raw response. */
export async function search(svc: TestService, id: string, params: Record<string, unknown>) {
  return svc.execute(id, { entity: 'people', action: 'context_store_search', params });
}

/** Runs a search that must succeed; returns {ids, body}. */
export async function searchIds(
  svc: TestService,
  id: string,
  params: Record<string, unknown>,
): Promise<{ ids: string[]; body: any }> {
  const res = await search(svc, id, { limit: 1000, ...params });
  if (res.statusCode !== 200) throw new Error(`search failed: ${res.statusCode} ${res.body}`);
  const body = res.json();
  return { ids: body.result.data.map((d: any) => d.id), body };
}
