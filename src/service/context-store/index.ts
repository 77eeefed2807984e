import type { ConnectorInstance, ConnectorType, ContextStoreSearch } from '../core/connector-type.js';
import type { Store } from '../core/store.js';
import { DEFAULT_INDEXER_OPTIONS, Indexer, type IndexerOptions } from './indexer.js';
import { writeOutbox } from './outbox.js';
import type { CursorSeal } from '../core/cursor-seal.js';
import { contextStoreSearch } from './search.js';
import type { ChangeOutbox } from '../core/service-context.js';
import type { ContextStoreStatus } from './readiness.js';

export { contextStoreMigrations } from './migrations.js';
export { contextStoreSearch, SEARCH_LIMIT_DEFAULT, SEARCH_LIMIT_MAX } from './search.js';
export { readContextStoreReadiness, type EntityReadiness } from './readiness-report.js';
export { contextStoreSearchParamsSchema, contextStoreSearchResultSchema } from './params-schema.js';
export { STATUSES, lowestStatus, isSearchable, type ContextStoreStatus } from './readiness.js';
export type { IndexerOptions } from './indexer.js';

/** Timings a caller may set (tests shorten them or hold entities in a status); the rest default. */
export type ContextStoreTimings = Partial<IndexerOptions>;

/** What attach() needs from the service: its record-change events (ServiceContext.onChange). */
export interface ChangeSource {
  onChange(
    listener: (event: { connector: ConnectorInstance; entity: string; ids: readonly string[] }) => void,
  ): () => void;
}

export interface ContextStoreOptions extends Partial<IndexerOptions> {
  /** The connector types whose contextStore sources are indexed (normally the registry's connectorTypes). */
  types: readonly ConnectorType[];
  /** Seals the search's paging cursors, so only cursors this service issued are accepted. */
  cursors: CursorSeal;
  /** Called when a background step fails (the step is retried on the next tick). */
  onError?: (err: unknown) => void;
}

/** The running context store: the background indexer of every connector's entities, and its search. */
export interface ContextStore extends ContextStoreSearch {
  /** Where writers record changed records inside their transaction (ActionContext.recordChanges). */
  readonly outbox: ChangeOutbox;
  /** Subscribes to the service's change events and starts the background loop (resuming unfinished builds). */
  attach(service: ChangeSource): void;
  /** Changes the hold status at run time (tests hold an entity in a status, then release it with null). */
  setHold(status: ContextStoreStatus | null): void;
  /**
   * Pauses initial builds (queued changes still apply) until the returned function is called: bulk loads
   * that write without change notifications (the demo seed) pause builds so no record is read half-loaded.
   */
  pauseBuilds(): () => void;
  /** Applies queued changes and finishes the current step. */
  drain(): Promise<void>;
  /** Stops the loop after applying queued changes. */
  close(): Promise<void>;
}

/**
 * Creates the context store over the service's store (its tables come from contextStoreMigrations, passed
 * to openStore). Builds run asynchronously: Loading → Building Preview → Preview → Ready per entity.
 */
export function createContextStore(store: Store, options: ContextStoreOptions): ContextStore {
  const { types, onError, cursors, ...timings } = options;
  const indexer = new Indexer(store, types, { ...DEFAULT_INDEXER_OPTIONS, ...stripUndefined(timings) });
  let timer: NodeJS.Timeout | null = null;
  let running: Promise<void> | null = null;
  let closed = false;
  let unsubscribe: (() => void) | null = null;
  let discoveredAll = false;
  let pauses = 0;

  const tick = async (): Promise<boolean> => {
    await indexer.discover(!discoveredAll);
    discoveredAll = true;
    const flushed = await indexer.flush();
    if (pauses > 0) return flushed;
    return (await indexer.buildStep()) || flushed;
  };

  const schedule = (delay: number) => {
    if (closed) return;
    timer = setTimeout(() => {
      timer = null;
      running = tick()
        .then((worked) => schedule(worked ? indexer.options.batchDelayMs : indexer.options.flushIntervalMs))
        .catch((err) => {
          onError?.(err);
          schedule(indexer.options.flushIntervalMs);
        })
        .finally(() => {
          running = null;
        });
    }, delay);
    timer.unref();
  };

  return {
    search: (ctx, entity, params) => contextStoreSearch(ctx, entity, params, cursors),
    outbox: {
      async write(trx, connector, entity, ids) {
        if (ids.length > 0 && indexer.indexes(connector, entity)) await writeOutbox(trx, connector.id, entity, ids);
      },
    },
    attach(service) {
      if (unsubscribe) return;
      unsubscribe = service.onChange((e) => indexer.enqueue(e.connector, e.entity, e.ids));
      schedule(0);
    },
    setHold(status) {
      indexer.options = { ...indexer.options, hold: status };
    },
    pauseBuilds() {
      pauses += 1;
      let resumed = false;
      return () => {
        if (!resumed) pauses -= 1;
        resumed = true;
      };
    },
    async drain() {
      if (running) await running;
      // Until the outbox is empty (each flush reads a bounded batch).
      for (let more = true; more;) more = await indexer.flush();
    },
    async close() {
      closed = true;
      if (timer) clearTimeout(timer);
      unsubscribe?.();
      if (running) await running.catch(() => {});
      await indexer.flush().catch((err) => onError?.(err));
    },
  };
}

function stripUndefined<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}
