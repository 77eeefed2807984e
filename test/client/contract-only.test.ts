import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ConnectorClient, readConnectionConfig, type ClientOptions } from '../../src/client/index.js';
import { startContractServer, type ContractServer } from './contract-server.js';
import { caught } from './caught.js';

// The client against a service that answers only what the published contract promises (contract-server.ts).

const CRM_DEF = '11111111-1111-4111-8111-111111111111';
const FILES_DEF = '22222222-2222-4222-8222-222222222222';
const ORG = '33333333-3333-4333-8333-333333333333';

let server: ContractServer;
let client: ConnectorClient;
let clock: number;

function makeClient(extra: Partial<ClientOptions> = {}): ConnectorClient {
  return new ConnectorClient({
    baseUrl: server.url,
    clientId: 'id-1',
    clientSecret: 'shh-secret-1',
    workspace: 'default',
    deps: { now: () => clock, random: () => 0.5, sleep: async () => undefined },
    ...extra,
  });
}

beforeEach(async () => {
  clock = Date.parse('2026-01-01T00:00:00Z');
  server = await startContractServer();
  server.connectors = [
    { id: 'conn-files', name: 'Drive', templateName: 'Files', connectorName: 'files', actorDefinitionId: FILES_DEF },
    { id: 'conn-crm', name: 'Sales CRM', templateName: 'CRM', connectorName: 'crm', actorDefinitionId: CRM_DEF },
  ];
  client = makeClient();
});

afterEach(async () => {
  await client.close();
  await server.close();
});

const lookups = (): string[] =>
  server.seen.filter((s) => s.path.startsWith('/api/v1/integrations/connectors?')).map((s) => s.path);

describe('connector lookup on an unfiltered list', () => {
  it('picks the row whose summarized_source_template.actor_definition_id is the catalog UUID', async () => {
    server.definitions = [
      { sourceDefinitionId: FILES_DEF, name: 'Files' },
      { sourceDefinitionId: CRM_DEF, name: 'CRM' },
    ];
    expect(await client.resolveConnector({ definition: 'CRM' })).toBe('conn-crm');
    expect(await client.resolveConnector({ definition: FILES_DEF })).toBe('conn-files');
  });

  it('picks the row by the definition name when the catalog id is not a UUID (the filter refused, then none)', async () => {
    server.definitions = [
      { sourceDefinitionId: 'crm', name: 'CRM' },
      { sourceDefinitionId: 'files', name: 'Files' },
    ];
    expect(await client.resolveConnector({ definition: 'CRM' })).toBe('conn-crm');
    expect(lookups()).toEqual([
      '/api/v1/integrations/connectors?workspace_name=default&definition_id=crm',
      '/api/v1/integrations/connectors?workspace_name=default',
    ]);
  });

  it('picks the row by name when the catalog gives no definition id at all', async () => {
    server.definitions = [{ sourceDefinitionId: null, name: 'CRM' }, { name: 'Files' }];
    expect(await client.resolveConnector({ workspace: 'sales', definition: 'files' })).toBe('conn-files');
    expect(lookups()).toEqual(['/api/v1/integrations/connectors?workspace_name=sales']);
  });

  it('names the candidates when several connectors match, and the workspace when none does', async () => {
    server.definitions = [
      { sourceDefinitionId: CRM_DEF, name: 'CRM' },
      { sourceDefinitionId: '44444444-4444-4444-8444-444444444444', name: 'Mail' },
    ];
    server.connectors.push({
      id: 'conn-crm-2',
      name: 'Support CRM',
      templateName: 'CRM',
      connectorName: 'crm',
      actorDefinitionId: CRM_DEF,
    });
    const many = await caught(client.resolveConnector({ definition: 'CRM' }));
    expect(many.code).toBe('C004');
    expect(many.message).toContain('conn-crm (Sales CRM, a CRM connector)');
    expect(many.message).toContain('conn-crm-2 (Support CRM, a CRM connector)');
    expect(many.message).not.toContain('conn-files');
    const none = await caught(client.resolveConnector({ definition: 'Mail' }));
    expect(none.code).toBe('C004');
    expect(none.message).toContain('no Mail connector');
    expect(none.message).toContain('conn-files (Drive, a Files connector)');
  });
});

describe('organization and token', () => {
  it('sends x-organization-id on every connector API request when configured, and never otherwise', async () => {
    server.definitions = [{ sourceDefinitionId: CRM_DEF, name: 'CRM' }];
    await client.execute(await client.resolveConnector({ definition: 'CRM' }), { entity: 'contacts', action: 'list' });
    expect(server.seen.length).toBeGreaterThan(0);
    expect(server.seen.every((s) => s.headers['x-organization-id'] === undefined)).toBe(true);

    await client.close();
    server.seen = [];
    const config = readConnectionConfig({}, { CONNECTOR_ORGANIZATION_ID: ORG });
    expect(config.organizationId).toBe(ORG);
    client = makeClient({ organizationId: ORG });
    const id = await client.resolveConnector({ definition: 'CRM' });
    await client.inspect(id);
    const env = await client.execute(id, { entity: 'contacts', action: 'list' });
    expect(env.result).toEqual([{ connector: 'conn-crm' }]);
    expect(server.seen.map((s) => s.path.split('?')[0])).toEqual([
      '/api/v1/account/applications/token',
      '/api/v1/integrations/definitions/sources',
      '/api/v1/integrations/connectors',
      '/api/v1/integrations/connectors/conn-crm/inspect',
      '/api/v1/integrations/connectors/conn-crm/execute',
    ]);
    expect(server.seen.every((s) => s.headers['x-organization-id'] === ORG)).toBe(true);

    // An http step's URL is not the connector API: the organization is not sent there.
    server.seen = [];
    await client.http({ method: 'GET', url: `${server.url}/elsewhere`, headers: {}, successStatus: ['2xx', 401] });
    expect(server.seen).toHaveLength(1);
    expect(server.seen[0]?.headers['x-organization-id']).toBeUndefined();
  });

  it('the flag wins over CONNECTOR_ORGANIZATION_ID, and neither leaves it out', () => {
    const env = { CONNECTOR_ORGANIZATION_ID: ORG };
    expect(readConnectionConfig({ organizationId: 'org-flag' }, env).organizationId).toBe('org-flag');
    expect(readConnectionConfig({}, env).organizationId).toBe(ORG);
    expect(readConnectionConfig({}, {})).not.toHaveProperty('organizationId');
  });

  it('a 401 after a token answered without expires_in renews it once, then the call succeeds', async () => {
    server.expiresIn = undefined;
    await client.execute('conn-crm', { entity: 'contacts', action: 'list' });
    expect(server.tokensIssued).toBe(1);
    server.refuseNext = 1;
    const env = await client.execute('conn-crm', { entity: 'contacts', action: 'list' });
    expect(env.result).toEqual([{ connector: 'conn-crm' }]);
    expect(server.tokensIssued).toBe(2);
    expect(server.seen.at(-1)?.headers.authorization).toBe('Bearer tok-2');
  });

  it('a token answered without expires_in lives until its JWT exp claim', async () => {
    server.expiresIn = undefined;
    server.jwtExp = clock / 1000 + 120;
    await client.execute('conn-crm', { entity: 'contacts', action: 'list' });
    clock += 60_000;
    await client.execute('conn-crm', { entity: 'contacts', action: 'list' });
    expect(server.tokensIssued).toBe(1);
    // Two minutes of life, refreshed a tenth of it early: renewed before the exp claim is reached.
    clock += 50_000;
    await client.execute('conn-crm', { entity: 'contacts', action: 'list' });
    expect(server.tokensIssued).toBe(2);
  });

  it('a token answered with expires_in 0 is kept for the documented 15 minutes, then renewed', async () => {
    server.expiresIn = 0;
    await client.execute('conn-crm', { entity: 'contacts', action: 'list' });
    await client.execute('conn-crm', { entity: 'contacts', action: 'list' });
    expect(server.tokensIssued).toBe(1);
    clock += 15 * 60_000;
    await client.execute('conn-crm', { entity: 'contacts', action: 'list' });
    expect(server.tokensIssued).toBe(2);
  });
});
