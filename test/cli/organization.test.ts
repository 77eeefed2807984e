import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startContractServer, type ContractServer } from '../client/contract-server.js';
import { runCli } from './cli-process.js';

/**
 * `recipe run` as a user runs it against a service that answers only what the published contract promises
 * (test/client/contract-server.ts): catalog ids that are not UUIDs, a connectors list it never filters, no
 * OpenAPI document. The `{workspace, definition}` lookup still finds the connector, and x-organization-id is
 * sent when --organization or CONNECTOR_ORGANIZATION_ID says so, and never otherwise.
 */
const ORG = '33333333-3333-4333-8333-333333333333';
let server: ContractServer;
let dir: string;

const recipe = `version: 1
name: org-probe
connector: { workspace: default, definition: CRM }
steps:
  - id: contacts
    execute: { entity: contacts, action: list, params: { limit: 1 } }
outputs:
  connector: \${ $contacts[0].connector }
`;

beforeAll(async () => {
  server = await startContractServer();
  dir = await mkdtemp(join(tmpdir(), 'organization-cli-'));
  await writeFile(join(dir, 'probe.yaml'), recipe);
});
afterAll(async () => {
  await server.close();
  await rm(dir, { recursive: true, force: true });
});
beforeEach(() => {
  // Definition ids that are no UUIDs (one has none at all), and two connectors the list returns unfiltered.
  server.definitions = [{ sourceDefinitionId: 'files-def', name: 'Files' }, { name: 'CRM' }];
  server.connectors = [
    { id: 'conn-files', name: 'Drive', templateName: 'Files', connectorName: 'files', actorDefinitionId: 'files-def' },
    { id: 'conn-crm', name: 'Sales CRM', templateName: 'CRM', connectorName: 'crm', actorDefinitionId: 'crm-def' },
  ];
  server.seen = [];
});

const env = (extra: Record<string, string> = {}) => ({
  CONNECTOR_API_URL: server.url,
  CONNECTOR_CLIENT_ID: 'id-1',
  CONNECTOR_CLIENT_SECRET: 'shh-secret-1',
  NO_COLOR: '1',
  ...extra,
});

async function runProbe(args: string[], extra: Record<string, string> = {}) {
  const r = await runCli(['run', 'probe.yaml', '--json', '--no-journal', ...args], { cwd: dir, env: env(extra) });
  expect(r.code, r.stderr).toBe(0);
  const report = JSON.parse(r.stdout) as { outputs: { connector: string } };
  return report.outputs.connector;
}

/** The organization's operations: the public OpenAPI document (asked for the catalog) belongs to none. */
const connectorApiRequests = () =>
  server.seen.filter((s) => s.path.startsWith('/api/v1/') && s.path !== '/api/v1/openapi.json');

describe('recipe run against a contract-only service', () => {
  it('finds the connector by definition name in an unfiltered list with no UUIDs, and sends no organization', async () => {
    expect(await runProbe([])).toBe('conn-crm');
    expect(connectorApiRequests().length).toBeGreaterThan(2);
    expect(connectorApiRequests().every((s) => s.headers['x-organization-id'] === undefined)).toBe(true);
  }, 60_000);

  it('sends x-organization-id on every connector API request with --organization', async () => {
    expect(await runProbe(['--organization', ORG])).toBe('conn-crm');
    const seen = connectorApiRequests();
    expect(seen.some((s) => s.path.includes('/execute'))).toBe(true);
    expect(seen.every((s) => s.headers['x-organization-id'] === ORG)).toBe(true);
  }, 60_000);

  it('sends it with CONNECTOR_ORGANIZATION_ID too', async () => {
    expect(await runProbe([], { CONNECTOR_ORGANIZATION_ID: ORG })).toBe('conn-crm');
    expect(connectorApiRequests().every((s) => s.headers['x-organization-id'] === ORG)).toBe(true);
  }, 60_000);
});
