import Fastify, { type FastifyInstance } from 'fastify';
import { installAuth } from './auth/hook.js';
import { defaultConnectorTypes } from './compose.js';
import { createContextStore, type ContextStore, type ContextStoreTimings } from './context-store/index.js';
import type { ConnectorType } from './core/connector-type.js';
import { createCursorSeal } from './core/cursor-seal.js';
import { createServiceContext } from './core/service-context.js';
import type { Store } from './core/store.js';
import { installErrorHandling } from './http/error-handler.js';
import './http/fastify-types.js';
import { clientErrors, frameworkErrors, MAX_PARAM_LENGTH } from './http/framework-errors.js';
import { installJsonParser } from './http/json-parser.js';
import { RateLimiter } from './http/rate-limit.js';
import { installRouteTable } from './openapi/route-table.js';
import { routes } from './routes/index.js';
import { loadOrCreateSigningKey } from './store/signing-keys.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** The background indexer of the context store (tests use setHold/drain). */
    contextStore: ContextStore;
  }
}

/** Default largest request body: 1 MiB. */
export const DEFAULT_BODY_LIMIT = 1024 * 1024;

export interface BuildAppOptions {
  store: Store;
  /** Service clock; defaults to the wall clock. Tests pin it to check token expiry. */
  now?: () => Date;
  /** Largest accepted request body in bytes; larger ones get 413. */
  bodyLimit?: number;
  /** Requests per second per bearer token; off when absent or 0. */
  rateLimit?: number;
  /** Log level for the server log (stderr); default 'silent'. */
  logLevel?: 'silent' | 'error' | 'warn' | 'info' | 'debug';
  /** Connector types offered; default the registry's. Tests pass their own to exercise execute alone. */
  connectorTypes?: readonly ConnectorType[];
  /** Context store timings (tests shorten them or hold entities in a status). */
  contextStore?: ContextStoreTimings;
}

/** Builds the Fastify app of the connector service (not listening yet; use inject or listen). */
export async function buildApp(opts: BuildAppOptions): Promise<FastifyInstance> {
  const now = opts.now ?? (() => new Date());
  const bodyLimit = opts.bodyLimit ?? DEFAULT_BODY_LIMIT;
  const app = Fastify({
    bodyLimit,
    logger: {
      level: opts.logLevel ?? 'silent',
      stream: process.stderr,
      // Never log credentials: bearer tokens, client secrets, connector credentials.
      redact: {
        paths: [
          'req.headers.authorization',
          'req.body.client_secret',
          'req.body.credentials',
          '*.client_secret',
          '*.credentials',
        ],
        censor: '[redacted]',
      },
    },
    // Strict validation: no type coercion, unknown fields are errors (not silently dropped), all errors reported.
    ajv: { customOptions: { coerceTypes: false, removeAdditional: false, allErrors: true, useDefaults: true } },
    // Errors raised before a route is found, and requests Node cannot parse, answer in our error shape too.
    frameworkErrors,
    clientErrorHandler: clientErrors,
    routerOptions: { maxParamLength: MAX_PARAM_LENGTH },
  });
  installJsonParser(app);
  const signingKey = await loadOrCreateSigningKey(opts.store.db, now());
  const types = opts.connectorTypes ?? defaultConnectorTypes;
  const cursors = createCursorSeal(signingKey);
  // The composition root: the context store indexes the connector types' sources, the connectors reach
  // its search through the service context, and it follows the service's change events.
  const contextStore = createContextStore(opts.store, {
    ...opts.contextStore,
    types,
    cursors,
    onError: (err) => app.log.error({ err }, 'context store step failed'),
  });
  const service = createServiceContext({
    store: opts.store,
    now,
    signingKey,
    cursors,
    types,
    contextStore,
    outbox: contextStore.outbox,
    onListenerError: (err) => app.log.error({ err }, 'change listener failed'),
  });
  app.decorate('service', service);
  app.decorate('contextStore', contextStore);
  contextStore.attach(service);
  app.addHook('onClose', async () => contextStore.close());
  installRouteTable(app);
  installErrorHandling(app, bodyLimit);
  installAuth(app, opts.rateLimit ? new RateLimiter(opts.rateLimit, () => now().getTime()) : null);
  for (const plugin of routes) await app.register(plugin, { prefix: '/api/v1' });
  return app;
}
