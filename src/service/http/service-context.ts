import 'fastify';
import type { ConnectorInstance, ConnectorType } from '../connectors/types.js';
import type { Store } from '../store/store.js';

/** What listeners hear after a connector action's write committed. */
export interface ChangeEvent {
  readonly connector: ConnectorInstance;
  readonly entity: string;
  readonly ids: readonly string[];
}

export type ChangeListener = (event: ChangeEvent) => void;

/** Everything routes share, decorated on the Fastify instance as `app.service`. */
export interface ServiceContext {
  readonly store: Store;
  /** The service clock (tests pin it). */
  now(): Date;
  /** HS256 key for application tokens. */
  readonly signingKey: Uint8Array;
  /** The connector types this service offers (the registry's list unless a test passes its own). */
  readonly types: readonly ConnectorType[];
  /** Registers a listener for record changes (the context store's indexer); returns an unsubscribe function. */
  onChange(listener: ChangeListener): () => void;
  /** Tells every listener; a throwing listener is logged, never fails the request that already committed. */
  emitChange(event: ChangeEvent): void;
}

declare module 'fastify' {
  interface FastifyInstance {
    service: ServiceContext;
  }
  interface FastifyRequest {
    /** Set by the auth hook on every authenticated route. */
    organizationId: string;
  }
  interface FastifyContextConfig {
    /** Route needs no bearer token (the token route, the OpenAPI document). */
    public?: boolean;
  }
}

/** Builds the shared context with a plain listener list. */
export function createServiceContext(opts: {
  store: Store;
  now: () => Date;
  signingKey: Uint8Array;
  types: readonly ConnectorType[];
  onListenerError: (err: unknown) => void;
}): ServiceContext {
  const listeners = new Set<ChangeListener>();
  return {
    store: opts.store,
    now: opts.now,
    signingKey: opts.signingKey,
    types: opts.types,
    onChange(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    emitChange(event) {
      for (const l of listeners) {
        try {
          l(event);
        } catch (err) {
          opts.onListenerError(err);
        }
      }
    },
  };
}
