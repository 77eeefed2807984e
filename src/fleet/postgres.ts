import { createPostgresBackend, FlowProducer, Queue, Worker, type PostgresPoolConfig } from 'bullmq';
import { RecipeError } from '../errors/index.js';
import { openSqlPool, type SqlPool } from '../journal/postgres/client.js';
import { applyMigrations } from '../journal/postgres/schema.js';
import { redactUrl } from './fleet-store.js';
import { listen } from './worker-events.js';
import { openPostgresFleetJournal, postgresRateLimiter } from './postgres-journal.js';
import { postgresRegistry } from './postgres-registry.js';
import type { FleetKv, StoreConnections } from './store-connections.js';

/** The schema of the fleet's own tables (visits, the registry); BullMQ keeps its `bullmq` schema. */
export const FLEET_SCHEMA = 'recipe_fleet';

/**
 * The fleet schema's versioned migrations, applied at every worker's (and command's) start by the journal's
 * migration runner (applyMigrations: recorded in recipe_fleet.schema_version, under an advisory lock, so
 * workers starting at once apply each once). Append only: a change is a new version.
 */
const MIGRATIONS: readonly string[] = [
  // 1: the kv table (distributed foreach visits). IF NOT EXISTS: databases set up before versions were kept
  // have it already, without a schema_version.
  `CREATE TABLE IF NOT EXISTS {S}.kv (
     key text PRIMARY KEY,
     value text NOT NULL,
     expires_at timestamptz NOT NULL
   )`,
  // 2: the registry (src/fleet/postgres-registry.ts): live workers, whose rows run out on the database's clock,
  // and paused schedules.
  `CREATE TABLE {S}.workers (
     queue text NOT NULL,
     id text NOT NULL,
     record text NOT NULL,
     expires_at timestamptz NOT NULL,
     PRIMARY KEY (queue, id)
   );
   CREATE TABLE {S}.paused_schedules (
     queue text NOT NULL,
     name text NOT NULL,
     paused text NOT NULL,
     paused_at timestamptz NOT NULL DEFAULT now(),
     PRIMARY KEY (queue, name)
   )`,
];

/**
 * The fleet on PostgreSQL (--postgres): BullMQ's PostgreSQL backend for the queue, workers, flows and job
 * schedulers (its schema `bullmq`, migrated by the first of them to connect: BullMQ's migrator takes an advisory
 * lock, so several workers starting at once apply them once), the run journal in the same database, and a pool
 * of our own for the fleet's tables (visits, the registry). F010 now when PostgreSQL cannot be reached.
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
    registry: postgresRegistry(pool, FLEET_SCHEMA),
    openJournal: (o) => openPostgresFleetJournal(url, o),
    rateLimiter: (maxRps) => postgresRateLimiter(pool, maxRps),
    close: async () => {
      await pool.end().catch(() => undefined);
    },
  };
}

async function migrate(pool: SqlPool): Promise<void> {
  // The lock's key is the one the unversioned migration of earlier releases took: old and new workers starting
  // together still take turns.
  await applyMigrations(pool, FLEET_SCHEMA, MIGRATIONS, FLEET_SCHEMA);
  // Expired rows are skipped by every read; they are deleted here, at a worker's (or command's) start.
  await pool.query(`DELETE FROM ${FLEET_SCHEMA}.kv WHERE expires_at < now()`);
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
