import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConnectorClient } from '../../../src/client/index.js';
import { startService, type RunningService } from '../../../src/service/start.js';

// The client retries a write after a connection reset only when its service says the write is idempotent
// (client/action-facts.ts): the CRM says so of associations create and delete in inspect's actions, and of
// nothing else, so the engine needs no entity name to know it.

let service: RunningService;
let client: ConnectorClient;

beforeAll(async () => {
  service = await startService({ seed: 'demo', logLevel: 'silent' });
  client = new ConnectorClient({ baseUrl: service.url, ...service.credentials, workspace: 'default' });
});
afterAll(async () => {
  await client.close();
  await service.close();
});

describe("inspect's actions say which writes are idempotent", () => {
  it('associations create and delete, and nothing else', async () => {
    const id = await client.resolveConnector({ workspace: 'default', definition: 'CRM' });
    const report = (await client.inspect(id)) as {
      actions: { entity: string; action: string; idempotent?: boolean }[];
    };
    const idempotent = report.actions.filter((a) => a.idempotent === true).map((a) => `${a.entity}.${a.action}`);
    expect(idempotent.sort()).toEqual(['associations.create', 'associations.delete']);
  });
});
