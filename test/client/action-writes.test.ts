import { afterAll, beforeAll, expect, it } from 'vitest';
import { ConnectorClient } from '../../src/client/index.js';
import { startService, type RunningService } from '../../src/service/start.js';

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

it("learns which actions write from the service's inspect (actions[].write)", async () => {
  const crm = await client.resolveConnector({ definition: 'CRM' });
  expect(client.knowsActions(crm)).toBe(false);
  const info = await client.inspect(crm);
  const actions = info.actions as { entity: string; action: string; write: boolean }[];
  expect(actions.length).toBeGreaterThan(0);
  expect(client.knowsActions(crm)).toBe(true);
  // Every action as the service says it, not as the name rule would guess.
  for (const a of actions) expect(client.isWriteAction(crm, a.entity, a.action)).toBe(a.write);
  expect(client.isWriteAction(crm, 'contacts', 'create')).toBe(true);
  expect(client.isWriteAction(crm, 'contacts', 'list')).toBe(false);
  // Actions it did not list, and connectors it was not asked about, keep the name rule.
  expect(client.isWriteAction(crm, 'contacts', 'export')).toBe(true);
  expect(client.isWriteAction('other', 'contacts', 'api_search')).toBe(false);
});

// The client retries a write after a connection reset only when its service says the write is idempotent
// (client/action-facts.ts): the CRM says so of associations create and delete, and of nothing else, so the
// engine needs no entity name to know it.
it("learns which writes are idempotent from the service's inspect (actions[].idempotent)", async () => {
  const id = await client.resolveConnector({ workspace: 'default', definition: 'CRM' });
  const report = (await client.inspect(id)) as { actions: { entity: string; action: string; idempotent?: boolean }[] };
  const idempotent = report.actions.filter((a) => a.idempotent === true).map((a) => `${a.entity}.${a.action}`);
  expect(idempotent.sort()).toEqual(['associations.create', 'associations.delete']);
});
