import type { FastifyInstance } from 'fastify';
import { setContextStoreSearch } from '../connectors/crm/execute.js';
import { contextStoreSearch, createContextStore, type ContextStore, type IndexerOptions } from './index.js';

/** Timings a caller may set (tests shorten them or hold entities in a status); the rest default. */
export type ContextStoreTimings = Partial<IndexerOptions>;

declare module 'fastify' {
  interface FastifyInstance {
    /** The background indexer of the context store (tests use setHold/drain). */
    contextStore: ContextStore;
  }
}

/**
 * Starts the context store for an app: the indexer follows the service's change events and resumes
 * unfinished builds; it stops (after applying queued changes) when the app closes.
 */
export function attachContextStore(app: FastifyInstance, timings: ContextStoreTimings = {}): ContextStore {
  const cs = createContextStore(app.service.store, {
    ...timings,
    types: app.service.types,
    onError: (err) => app.log.error({ err }, 'context store step failed'),
  });
  app.decorate('contextStore', cs);
  // The CRM connector routes context_store_search to this hook (it owns the records, we own the index).
  setContextStoreSearch(contextStoreSearch);
  cs.attach(app.service);
  app.addHook('onClose', async () => cs.close());
  return cs;
}
