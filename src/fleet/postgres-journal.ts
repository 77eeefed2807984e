import type { RequestLimiter } from '../client/index.js';
import { RecipeError } from '../errors/index.js';
import type { JournalStore } from '../journal/index.js';
import type { FleetJournalOptions } from './store-connections.js';

/**
 * The wiring of the journal's PostgreSQL backend (src/journal/postgres/) and the PostgreSQL rate limit
 * (src/fleet/rate-limit/) into a fleet on PostgreSQL.
 */
export function openPostgresFleetJournal(url: string, o: FleetJournalOptions): Promise<JournalStore> {
  void url;
  void o;
  return Promise.reject(new RecipeError('F011', { url: '?', reason: 'the PostgreSQL journal is not built yet' }));
}

export function postgresRateLimiter(pool: unknown, maxRps: number): RequestLimiter {
  void pool;
  void maxRps;
  throw new RecipeError('F011', { url: '?', reason: 'the PostgreSQL rate limit is not built yet' });
}
