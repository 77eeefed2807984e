import type { Kysely } from 'kysely';
import type { ActionContext, ConnectorInstance, ConnectorType, ContextStoreSearch } from './connector-type.js';
import type { CursorSeal } from './cursor-seal.js';
import type { Store } from './store.js';
import type { CoreTables } from './tables.js';

/** What listeners hear after a connector action's write committed. */
export interface ChangeEvent {
  readonly connector: ConnectorInstance;
  readonly entity: string;
  readonly ids: readonly string[];
}

export type ChangeListener = (event: ChangeEvent) => void;

/** Where writers record changed records inside their transaction (the context store's outbox). */
export interface ChangeOutbox {
  write(trx: Kysely<CoreTables>, connector: ConnectorInstance, entity: string, ids: readonly string[]): Promise<void>;
}

/** Everything routes share, decorated on the Fastify instance as `app.service` by the composition root. */
export interface ServiceContext {
  readonly store: Store;
  /** The service clock (tests pin it). */
  now(): Date;
  /** HS256 key for application tokens. */
  readonly signingKey: Uint8Array;
  /** Seals and opens the paging cursors routes issue (workspaces, skills). */
  readonly cursors: CursorSeal;
  /** The connector types this service offers (the registry's list unless a test passes its own). */
  readonly types: readonly ConnectorType[];
  /** The context store's search, when this service runs one. */
  readonly contextStore: ContextStoreSearch | null;
  /** The change outbox, when something indexes changes. */
  readonly outbox: ChangeOutbox | null;
  /** Registers a listener for record changes (the context store's indexer); returns an unsubscribe function. */
  onChange(listener: ChangeListener): () => void;
  /** Tells every listener; a throwing listener is logged, never fails the request that already committed. */
  emitChange(event: ChangeEvent): void;
}

/** Builds the shared context with a plain listener list. */
export function createServiceContext(opts: {
  store: Store;
  now: () => Date;
  signingKey: Uint8Array;
  cursors: CursorSeal;
  types: readonly ConnectorType[];
  contextStore?: ContextStoreSearch | null;
  outbox?: ChangeOutbox | null;
  onListenerError: (err: unknown) => void;
}): ServiceContext {
  const listeners = new Set<ChangeListener>();
  return {
    store: opts.store,
    now: opts.now,
    signingKey: opts.signingKey,
    cursors: opts.cursors,
    types: opts.types,
    contextStore: opts.contextStore ?? null,
    outbox: opts.outbox ?? null,
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

/**
 * The context a connector action runs in (a request, a seed, a fixture load): store, clock, change ports.
 * `store` is the service's unless the action must join a transaction already open (an idempotent write).
 */
export function actionContext(
  svc: ServiceContext,
  connector: ConnectorInstance,
  baseUrl: string,
  store: Store = svc.store,
): ActionContext {
  const outbox = svc.outbox;
  return {
    store,
    connector,
    now: svc.now,
    baseUrl,
    notifyChange: (entity, ids) => svc.emitChange({ connector, entity, ids }),
    ...(outbox && { recordChanges: (trx, entity, ids) => outbox.write(trx, connector, entity, ids) }),
    ...(svc.contextStore && { contextStore: svc.contextStore }),
  };
}
