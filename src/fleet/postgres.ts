import { createPostgresBackend, FlowProducer, Queue, Worker, type PostgresPoolConfig } from 'bullmq';
import { RecipeError } from '../errors/index.js';
import { openSqlPool, type SqlPool } from '../journal/postgres/client.js';
import { redactUrl } from './fleet-store.js';
import { listen } from './worker-events.js';
import { openPostgresFleetJournal, postgresRateLimiter } from './postgres-journal.js';
import type { FleetKv, StoreConnections } from './store-connections.js';

/** The schema of the fleet's own small table (visits of distributed foreach); BullMQ keeps its `bullmq` schema. */
export const FLEET_SCHEMA = 'recipe_fleet';

/**
 * Ours, created once per database under a transaction-scoped advisory lock (so that workers starting at once
 * wait for the first instead of racing on CREATE): version 1 is the kv table. A later version adds its
 * statements here, guarded the same way.
 */
const MIGRATIONS: readonly string[] = [
  `CREATE TABLE IF NOT EXISTS ${FLEET_SCHEMA}.kv (
     key text PRIMARY KEY,
     value text NOT NULL,
     expires_at timestamptz NOT NULL
   )`,
];

/**
 * The fleet on PostgreSQL (--postgres): BullMQ's PostgreSQL backend for the queue, workers, flows and job
 * schedulers (its schema `bullmq`, migrated by the first of them to connect: BullMQ's migrator takes an advisory
 * lock, so several workers starting at once apply them once), the run journal in the same database, and a pool
 * of our own for the visits table. F010 now when PostgreSQL cannot be reached.
 *
 * Each BullMQ queue, worker and flow producer owns a small pool and, for a worker, a LISTEN connection: a worker
 * process holds some six connections (docs/fleet.md counts them for max_connections).
 */
export async function connectPostgresStore(url: string): Promise<StoreConnections> {
  let pool: SqlPool;
  try {
    // node-postgres from the journal's one place for it (src/journal/postgres/client.ts): an idle connection
    // that breaks (PostgreSQL restarted) is dropped and the next query opens another.
    pool = await openSqlPool(url, { max: 4, applicationName: 'recipe-fleet' });
  } catch (err) {
    throw new RecipeError('F010', { url: redactUrl(url), reason: (err as Error).message }, undefined, { cause: err });
  }
  try {
    await migrate(pool);
  } catch (err) {
    await pool.end().catch(() => undefined);
    throw new RecipeError('F011', { url: redactUrl(url), reason: (err as Error).message }, undefined, { cause: err });
  }
  // BullMQ builds its pools from this; `migrate` brings its schema up to date at the first connection.
  const connection: PostgresPoolConfig = { connectionString: url, migrate: true, max: 2 };
  const kv = postgresKv(pool);
  return {
    store: { kind: 'postgres', url },
    newQueue: (name) => {
      const queue = new Queue(name, { connection }, createPostgresBackend);
      // As on Redis (connectRedisStore): an unheard 'error' event would end the process.
      queue.on('error', () => undefined);
      return queue;
    },
    newWorker: (name, processor, options, events) => {
      const worker = new Worker(name, processor, { ...options, connection }, createPostgresBackend);
      listen(worker, events);
      return { worker, close: () => worker.close() };
    },
    newFlowProducer: () => {
      const flow = new FlowProducer({ connection }, createPostgresBackend);
      flow.on('error', () => undefined);
      return flow;
    },
    kv,
    openJournal: (o) => openPostgresFleetJournal(url, o),
    rateLimiter: (maxRps) => postgresRateLimiter(pool, maxRps),
    close: async () => {
      await pool.end().catch(() => undefined);
    },
  };
}

async function migrate(pool: SqlPool): Promise<void> {
  await pool.transaction(async (tx) => {
    await tx.query(`SELECT pg_advisory_xact_lock(hashtext('${FLEET_SCHEMA}'))`);
    await tx.query(`CREATE SCHEMA IF NOT EXISTS ${FLEET_SCHEMA}`);
    for (const statement of MIGRATIONS) await tx.query(statement);
    // Expired rows are skipped by every read; they are deleted here, at a worker's (or command's) start.
    await tx.query(`DELETE FROM ${FLEET_SCHEMA}.kv WHERE expires_at < now()`);
  });
}

/** The kv on a table: the database's clock decides expiry, the same for every worker. */
function postgresKv(pool: SqlPool): FleetKv {
  const table = `${FLEET_SCHEMA}.kv`;
  return {
    set: async (key, value, ttlS) => {
      await pool.query(
        `INSERT INTO ${table} (key, value, expires_at) VALUES ($1, $2, now() + make_interval(secs => $3))
         ON CONFLICT (key) DO UPDATE SET value = excluded.value, expires_at = excluded.expires_at`,
        [key, value, ttlS],
      );
    },
    setIfAbsent: async (key, value, ttlS) => {
      const result = await pool.query(
        `INSERT INTO ${table} (key, value, expires_at) VALUES ($1, $2, now() + make_interval(secs => $3))
         ON CONFLICT (key) DO UPDATE SET value = excluded.value, expires_at = excluded.expires_at
         WHERE ${table}.expires_at <= now()`,
        [key, value, ttlS],
      );
      return result.rowCount === 1;
    },
    get: async (key) => {
      const result = await pool.query<{ value: string }>(
        `SELECT value FROM ${table} WHERE key = $1 AND expires_at > now()`,
        [key],
      );
      return result.rows[0]?.value;
    },
    exists: async (key) => {
      const result = await pool.query(`SELECT 1 FROM ${table} WHERE key = $1 AND expires_at > now()`, [key]);
      return result.rowCount > 0;
    },
    del: async (keys) => {
      if (keys.length > 0) await pool.query(`DELETE FROM ${table} WHERE key = ANY($1)`, [keys]);
    },
  };
}
