import type { FastifyInstance } from 'fastify';
import { randomSecret } from './core/secrets.js';
import { buildApp } from './app.js';
import type { ConnectorType } from './core/connector-type.js';
import type { Migration } from './core/store.js';
import type { ContextStoreTimings } from './context-store/index.js';
import { defaultConnectorTypes, openServiceStore } from './compose.js';
import { loadFixturesFile, applyFixtures } from './seed/fixtures.js';
import { DEFAULT_SEED_SIZE, seedDemo } from './seed/demo.js';
import { ensureApplication } from './store/provision.js';
import type { Store } from './core/store.js';

export interface StartServiceOptions {
  /** Interface to listen on; default 127.0.0.1. */
  host?: string;
  /** Port; default 0 (any free port). */
  port?: number;
  /** SQLite file, or ':memory:' (default). */
  db?: string;
  /** 'demo' fills the default workspace with one demo connector per seedable type; default 'none'. */
  seed?: 'demo' | 'none';
  /** Contacts in the demo CRM; default 1000. */
  seedSize?: number;
  /** A JSON or YAML fixture file to load (see docs/service.md for its format). */
  fixtures?: string;
  /** Application credentials; both or neither. Neither: a new application with random credentials. */
  clientId?: string;
  clientSecret?: string;
  /** Requests per second per token; off when absent. */
  rateLimit?: number;
  /** Largest request body in bytes. */
  bodyLimit?: number;
  /** Migrations beyond the core and connector types' ones. */
  migrations?: readonly Migration[];
  /** Service clock (tests). */
  now?: () => Date;
  logLevel?: 'silent' | 'error' | 'warn' | 'info' | 'debug';
  /** Connector types offered (default: the registry's); tests pass their own. */
  connectorTypes?: readonly ConnectorType[];
  /** Context store timings (batch size, preview size, hold; see docs/context-store.md). */
  contextStore?: ContextStoreTimings;
}

/** A running service. */
export interface RunningService {
  /** Base URL, e.g. http://127.0.0.1:53412 (no trailing slash). */
  url: string;
  /** The application whose credentials take a token; its organization holds the seeded data. */
  credentials: { clientId: string; clientSecret: string };
  organizationId: string;
  store: Store;
  app: FastifyInstance;
  /** Stops listening and closes the database. */
  close(): Promise<void>;
}

/** Opens the store, provisions the application, starts listening, then seeds and loads fixtures. */
export async function startService(opts: StartServiceOptions = {}): Promise<RunningService> {
  if ((opts.clientId === undefined) !== (opts.clientSecret === undefined)) {
    throw new Error('give both clientId and clientSecret, or neither');
  }
  const types = opts.connectorTypes ?? defaultConnectorTypes;
  const fixtures = opts.fixtures !== undefined ? await loadFixturesFile(opts.fixtures, types) : undefined;
  const now = opts.now ?? (() => new Date());
  const store = await openServiceStore({
    path: opts.db ?? ':memory:',
    connectorTypes: types,
    ...(opts.migrations && { migrations: opts.migrations }),
  });
  let app: FastifyInstance | undefined;
  try {
    const creds = {
      clientId: opts.clientId ?? `app-${randomSecret(9)}`,
      clientSecret: opts.clientSecret ?? randomSecret(32),
    };
    const org = await ensureApplication(store, creds, now());
    app = await buildApp({
      store,
      now,
      ...(opts.bodyLimit !== undefined && { bodyLimit: opts.bodyLimit }),
      ...(opts.rateLimit !== undefined && { rateLimit: opts.rateLimit }),
      ...(opts.logLevel !== undefined && { logLevel: opts.logLevel }),
      ...(opts.connectorTypes !== undefined && { connectorTypes: opts.connectorTypes }),
      ...(opts.contextStore !== undefined && { contextStore: opts.contextStore }),
    });
    await app.listen({ host: opts.host ?? '127.0.0.1', port: opts.port ?? 0 });
    const url = serverUrl(app);
    const target = { organizationId: org.organizationId, workspaceId: org.defaultWorkspaceId };
    // Bulk loads write without change notifications: index them once they are complete.
    const resumeBuilds = app.contextStore.pauseBuilds();
    try {
      if (opts.seed === 'demo')
        await seedDemo(app.service, target, { size: opts.seedSize ?? DEFAULT_SEED_SIZE, baseUrl: url });
      if (fixtures) await applyFixtures(app.service, org.organizationId, fixtures, url);
    } finally {
      resumeBuilds();
    }
    const running = app;
    return {
      url,
      credentials: creds,
      organizationId: org.organizationId,
      store,
      app: running,
      async close() {
        await running.close();
        await store.close();
      },
    };
  } catch (err) {
    await app?.close();
    await store.close();
    throw err;
  }
}

/** The http://host:port the server listens on (IPv6 hosts in brackets). */
function serverUrl(app: FastifyInstance): string {
  const addr = app.server.address();
  if (addr === null || typeof addr === 'string') throw new Error('server is not listening on a TCP port');
  const host = addr.family === 'IPv6' ? `[${addr.address}]` : addr.address;
  return `http://${host}:${addr.port}`;
}
