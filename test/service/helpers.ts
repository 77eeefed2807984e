/**
 * Test helper for everything that goes through the connector service's HTTP layer.
 *
 *   const svc = await createTestService();           // app on an in-memory SQLite store
 *   const res = await svc.app.inject({ method: 'GET', url: '/api/v1/workspaces', headers: await svc.auth() });
 *   const id = await svc.createConnector('crm');      // in the default org's `default` workspace
 *   const out = await svc.execute(id, { entity: 'contacts', action: 'list', params: {} });
 *   const other = await svc.createOrg();             // a second, isolated organization
 *   svc.clock.set(new Date('2030-01-01T00:00:00Z')); // pin (and later .advance(ms)) the service clock
 *   await svc.close();
 *
 * Options: rateLimit, bodyLimit, migrations (extra, e.g. the context store's), connectorTypes (default:
 * the registry's; pass your own only to test the execute pipeline without a real type).
 */
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { buildApp } from '../../src/service/app.js';
import type { ConnectorType } from '../../src/service/core/connector-type.js';
import type { Migration } from '../../src/service/core/store.js';
import type { ContextStoreTimings } from '../../src/service/context-store/index.js';
import { openServiceStore as openStore } from '../../src/service/compose.js';
import { ensureApplication } from '../../src/service/store/provision.js';
import type { Store } from '../../src/service/core/store.js';

/** An organization with its application credentials. */
export interface TestOrg {
  organizationId: string;
  defaultWorkspaceId: string;
  clientId: string;
  clientSecret: string;
  /** A fresh application token taken over HTTP. */
  token(): Promise<string>;
  /** {authorization: 'Bearer <token>'} for inject. */
  auth(): Promise<Record<string, string>>;
}

export interface TestService {
  /** The Fastify app (use app.inject); not listening. */
  app: FastifyInstance;
  store: Store;
  /** The first organization, created with the service. */
  org: TestOrg;
  /** Pins the service clock: set(date) pins it, advance(ms) moves it, set(null) returns to the wall clock. */
  clock: { set(d: Date | null): void; advance(ms: number): void };
  /** Creates another organization (with its `default` workspace and an application). */
  createOrg(name?: string): Promise<TestOrg>;
  /** Token of the first organization. */
  token(): Promise<string>;
  /** Auth header of the first organization. */
  auth(): Promise<Record<string, string>>;
  /** Creates a connector over HTTP (type: slug or name, e.g. 'crm'); returns its id. Default org and workspace. */
  createConnector(type: string, opts?: { org?: TestOrg; workspace?: string; name?: string }): Promise<string>;
  /** POSTs to execute as an organization (default the first); returns the raw inject response. */
  execute(connectorId: string, body: Record<string, unknown>, org?: TestOrg): Promise<LightMyRequestResponse>;
  close(): Promise<void>;
}

let counter = 0;

/** Builds the service app on a fresh in-memory database with one organization. */
export async function createTestService(
  opts: {
    rateLimit?: number;
    bodyLimit?: number;
    migrations?: readonly Migration[];
    connectorTypes?: readonly ConnectorType[];
    contextStore?: ContextStoreTimings;
  } = {},
): Promise<TestService> {
  const store = await openStore({ path: ':memory:', ...(opts.migrations && { migrations: opts.migrations }) });
  let pinned: Date | null = null;
  const now = () => pinned ?? new Date();
  const app = await buildApp({
    store,
    now,
    ...(opts.rateLimit !== undefined && { rateLimit: opts.rateLimit }),
    ...(opts.bodyLimit !== undefined && { bodyLimit: opts.bodyLimit }),
    ...(opts.connectorTypes !== undefined && { connectorTypes: opts.connectorTypes }),
    ...(opts.contextStore !== undefined && { contextStore: opts.contextStore }),
  });

  const createOrg = async (name = `org ${++counter}`): Promise<TestOrg> => {
    const n = ++counter;
    const p = await ensureApplication(
      store,
      { clientId: `client-${n}`, clientSecret: `secret-${n}-${Math.random()}`, organizationName: name },
      now(),
    );
    const token = async () => {
      const res = await app.inject({
        method: 'POST',
        url: '/api/v1/account/applications/token',
        payload: { client_id: p.clientId, client_secret: p.clientSecret },
      });
      if (res.statusCode !== 200) throw new Error(`token request failed: ${res.statusCode} ${res.body}`);
      return (res.json() as { access_token: string }).access_token;
    };
    return { ...p, token, auth: async () => ({ authorization: `Bearer ${await token()}` }) };
  };

  const org = await createOrg('first org');
  return {
    app,
    store,
    org,
    clock: {
      set: (d) => void (pinned = d),
      advance: (ms) => void (pinned = new Date((pinned ?? new Date()).getTime() + ms)),
    },
    createOrg,
    token: org.token,
    auth: org.auth,
    async createConnector(type, o = {}) {
      const res = await app.inject({
        method: 'POST',
        url: '/api/v1/integrations/connectors',
        headers: await (o.org ?? org).auth(),
        payload: { workspace_name: o.workspace ?? 'default', connector_type: type, ...(o.name && { name: o.name }) },
      });
      if (res.statusCode !== 200) throw new Error(`create connector failed: ${res.statusCode} ${res.body}`);
      return (res.json() as { id: string }).id;
    },
    async execute(connectorId, body, asOrg = org) {
      return app.inject({
        method: 'POST',
        url: `/api/v1/integrations/connectors/${connectorId}/execute`,
        headers: await asOrg.auth(),
        payload: body,
      });
    },
    async close() {
      await app.close();
      await store.close();
    },
  };
}
