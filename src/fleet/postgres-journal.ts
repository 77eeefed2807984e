import { createHash } from 'node:crypto';
import type { RequestLimiter } from '../client/index.js';
import { DEFAULT_JOURNAL_SCHEMA, openPostgresJournal, type JournalStore } from '../journal/index.js';
import type { SqlPool } from '../journal/postgres/client.js';
import { DEFAULT_QUEUE } from './job.js';
import { PostgresRateLimiter } from './rate-limit/index.js';
import type { FleetJournalOptions } from './store-connections.js';

/**
 * The run journal of a queue's runs on PostgreSQL: one journal per queue, as on Redis (`recipe:journal:<queue>`),
 * each in a schema of its own: the default queue's is recipe_journal, another queue's recipe_journal_<queue>
 * (lower case, other characters as "_", and a hash of the name when it had to be changed, so that two queues
 * never share one).
 */
export function journalSchemaOf(queue: string): string {
  if (queue === DEFAULT_QUEUE) return DEFAULT_JOURNAL_SCHEMA;
  const plain = queue
    .toLowerCase()
    .replace(/[^a-z0-9_]/g, '_')
    .slice(0, 30);
  const suffix = plain === queue ? '' : `_${createHash('sha1').update(queue).digest('hex').slice(0, 8)}`;
  return `${DEFAULT_JOURNAL_SCHEMA}_${plain}${suffix}`;
}

/** The fleet's journal for a queue, in the fleet's PostgreSQL (J007 when it cannot be opened). */
export function openPostgresFleetJournal(url: string, o: FleetJournalOptions): Promise<JournalStore> {
  return openPostgresJournal(url, {
    schema: journalSchemaOf(o.queue),
    ...(o.recipesDir !== undefined ? { recipesDir: o.recipesDir } : {}),
    ...(o.leaseMs !== undefined ? { leaseMs: o.leaseMs } : {}),
    ...(o.holderName !== undefined ? { holderName: o.holderName } : {}),
  });
}

/** The fleet-wide rate limit on PostgreSQL (src/fleet/rate-limit/postgres-limiter.ts), on the fleet's pool. */
export function postgresRateLimiter(pool: SqlPool, maxRps: number): Promise<RequestLimiter> {
  return PostgresRateLimiter.create({ pool, maxRps });
}
