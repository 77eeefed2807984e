import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { crmConnector } from '../../../src/service/connectors/crm/index.js';
import { startService, type RunningService } from '../../../src/service/start.js';
import { waitFor } from './support/harness.js';

const creds = { clientId: 'seed-client', clientSecret: 'seed-secret-0123456789' };
let r: RunningService;
let crmId: string;

async function call(method: 'GET' | 'POST', url: string, payload?: Record<string, unknown>) {
  const tok = await r.app.inject({
    method: 'POST',
    url: '/api/v1/account/applications/token',
    payload: { client_id: creds.clientId, client_secret: creds.clientSecret },
  });
  const headers = { authorization: `Bearer ${tok.json().access_token}` };
  return payload === undefined
    ? r.app.inject({ method, url, headers })
    : r.app.inject({ method, url, headers, payload });
}

beforeAll(async () => {
  r = await startService({ ...creds, seed: 'demo', seedSize: 120, contextStore: { batchSize: 37, previewSize: 50 } });
  crmId = (
    await call(
      'GET',
      `/api/v1/integrations/connectors?workspace_name=default&definition_id=${crmConnector.definition.id}`,
    )
  ).json().data[0].id;
  await waitFor(
    'demo CRM indexed',
    async () =>
      (await call('GET', `/api/v1/integrations/connectors/${crmId}/inspect`)).json().context_store_status === 'Ready',
    60_000,
  );
});
afterAll(async () => r.close());

describe('the demo seed in the context store', () => {
  it('indexes every seeded record of every entity, with its associations as they are after seeding', async () => {
    const report = (await call('GET', `/api/v1/integrations/connectors/${crmId}/inspect`)).json();
    const source = crmConnector.contextStore!;
    const ctx = {
      store: r.store,
      connector: {
        id: crmId,
        organizationId: r.organizationId,
        workspaceId: report.workspace_id,
        definitionId: crmConnector.definition.id,
        name: report.name,
      },
      now: () => new Date(),
      baseUrl: r.url,
      notifyChange: () => {},
    };
    for (const e of report.context_store_readiness.configured_cache_entities) {
      expect(e.entity_count, e.entity).toBe(await source.count(ctx, e.entity));
    }
    // The indexed documents equal what the CRM says now (association arrays included): nothing half-seeded.
    const page = (
      await call('POST', `/api/v1/integrations/connectors/${crmId}/execute`, {
        entity: 'contacts',
        action: 'context_store_search',
        params: { query: {}, limit: 1000 },
      })
    ).json();
    const indexed = page.result.data as { id: string }[];
    expect(indexed.length).toBe(120);
    const current = await source.read(
      ctx,
      'contacts',
      indexed.map((d) => d.id),
    );
    const byId = new Map(current.map((d) => [d.id, d]));
    for (const doc of indexed) expect(doc).toEqual(JSON.parse(JSON.stringify(byId.get(doc.id))));
  });
});
