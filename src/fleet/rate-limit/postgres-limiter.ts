import type { RequestLimiter } from '../../client/index.js';
import { RecipeError } from '../../errors/index.js';
import { checkSchemaName } from '../../journal/postgres/schema.js';
import type { SqlPool } from '../../journal/postgres/client.js';
import { RATE_LIMIT_PREFIX, sleep, SPACING_MARGIN } from './limiter.js';

/** Where the fleet's rate limits live in PostgreSQL unless told otherwise. */
export const RATE_LIMIT_SCHEMA = 'recipe_rate';

/** Granted slots are kept this long (for `SELECT … FROM recipe_rate.grants`, and the tests), then pruned. */
const KEEP_GRANTS_MINUTES = 10;

export interface PostgresRateLimiterOptions {
  /** A pool on the fleet's database (openSqlPool, src/journal/postgres/client.ts): each worker its own. */
  readonly pool: SqlPool;
  /** The most requests per second per key (a connector id) across every worker of the fleet. */
  readonly maxRps: number;
  /** Key prefix (default recipe:rate): workers that share it share the limits. */
  readonly prefix?: string;
  /** The schema of its tables (default recipe_rate). */
  readonly schema?: string;
}

/**
 * The fleet-wide rate limit per connector on PostgreSQL (`recipe worker --postgres … --max-rps-per-connector
 * R`), the same limit FleetRateLimiter keeps on Redis: requests to one connector are spaced 1.1/R s apart
 * (SPACING_MARGIN), whichever worker sends them, so any second holds at most R of them.
 *
 * Each request reserves the next slot of its connector's schedule in one statement: the slot is the later of
 * the schedule's next free time and now, and the schedule moves one interval past it. The row's lock (an
 * upsert's) orders workers asking at once, and the clock is the database's (clock_timestamp()), the same for
 * every worker, so workers' clocks may disagree without letting more through. The request then sleeps until
 * its slot (never polling); a request cancelled while it waits leaves its slot unused, which only slows the
 * others, never lets more through. Each grant is recorded (`grants`: key, slot) and kept ten minutes, so an
 * operator can see what went when, by the database's clock.
 */
export class PostgresRateLimiter implements RequestLimiter {
  private readonly intervalUs: number;
  private readonly prefix: string;
  private readonly take: string;
  private readonly prune: string;
  private lastPrune = 0;

  private constructor(
    private readonly o: PostgresRateLimiterOptions,
    schema: string,
  ) {
    this.intervalUs = Math.ceil((1_000_000 / o.maxRps) * (1 + SPACING_MARGIN));
    this.prefix = o.prefix ?? RATE_LIMIT_PREFIX;
    const step = `$2 * interval '1 microsecond'`;
    this.take = `WITH slot AS (
        INSERT INTO ${schema}.schedules AS s (key, next_at) VALUES ($1, clock_timestamp() + ${step})
        ON CONFLICT (key) DO UPDATE SET next_at = greatest(s.next_at, clock_timestamp()) + ${step}
        RETURNING s.next_at - ${step} AS at
      )
      INSERT INTO ${schema}.grants (key, at) SELECT $1, at FROM slot
      RETURNING greatest(0, extract(epoch FROM at - clock_timestamp()) * 1000)::float8 AS wait_ms`;
    this.prune = `DELETE FROM ${schema}.grants WHERE at < clock_timestamp() - interval '${KEEP_GRANTS_MINUTES} minutes'`;
  }

  /**
   * A limiter on `o.pool`; its tables are made if missing (idempotent, and safe with several workers starting
   * at once: under a transaction-scoped advisory lock). F054 for a rate that is not a number above 0.
   */
  static async create(o: PostgresRateLimiterOptions): Promise<PostgresRateLimiter> {
    if (!Number.isFinite(o.maxRps) || o.maxRps <= 0)
      throw new RecipeError('F054', { reason: `a number of requests per second above 0, not ${String(o.maxRps)}` });
    const schema = checkSchemaName(o.schema ?? RATE_LIMIT_SCHEMA);
    await o.pool.transaction(async (tx) => {
      await tx.query(`SELECT pg_advisory_xact_lock(hashtext('recipe rate limit tables: ' || $1))`, [schema]);
      await tx.query(`CREATE SCHEMA IF NOT EXISTS ${schema}`);
      await tx.query(
        `CREATE TABLE IF NOT EXISTS ${schema}.schedules (key text PRIMARY KEY, next_at timestamptz NOT NULL)`,
      );
      await tx.query(`CREATE TABLE IF NOT EXISTS ${schema}.grants (key text NOT NULL, at timestamptz NOT NULL)`);
      await tx.query(`CREATE INDEX IF NOT EXISTS grants_by_key ON ${schema}.grants (key, at)`);
    });
    return new PostgresRateLimiter(o, schema);
  }

  async acquire(key: string, signal?: AbortSignal): Promise<void> {
    if (signal?.aborted) throw new RecipeError('C011');
    const { rows } = await this.o.pool.query<{ wait_ms: number }>(this.take, [
      `${this.prefix}:${key}`,
      this.intervalUs,
    ]);
    this.pruneNowAndThen();
    const wait = rows[0]?.wait_ms ?? 0;
    if (wait > 0) await sleep(Math.ceil(wait), signal);
    if (signal?.aborted) throw new RecipeError('C011');
  }

  /** Old grants go, at most once a minute per worker, off the request's path. */
  private pruneNowAndThen(): void {
    const now = Date.now();
    if (now - this.lastPrune < 60_000) return;
    this.lastPrune = now;
    void this.o.pool.query(this.prune).catch(() => undefined);
  }
}
