import type { SqlPool } from '../journal/postgres/client.js';
import { WORKER_TTL_MS, type FleetRegistry, type WorkerRecord } from './registry.js';

/**
 * The fleet's registry on PostgreSQL (registry.ts), in the fleet's own schema (tables of migration 2,
 * src/fleet/postgres.ts): `workers`, one row per live worker whose expires_at is set from the database's clock
 * (now()) at each heartbeat, so a worker killed without a word drops out of every listing WORKER_TTL_MS after
 * its last heartbeat, as its Redis key would expire; and `paused_schedules`. Rows of dead workers are deleted
 * by the next listing. (`workerTtlMs`: WORKER_TTL_MS but in tests.)
 */
export function postgresRegistry(pool: SqlPool, schema: string, workerTtlMs = WORKER_TTL_MS): FleetRegistry {
  const workers = `${schema}.workers`;
  const paused = `${schema}.paused_schedules`;
  return {
    writeWorker: async (record) => {
      await pool.query(
        `INSERT INTO ${workers} (queue, id, record, expires_at)
         VALUES ($1, $2, $3, now() + $4 * interval '1 millisecond')
         ON CONFLICT (queue, id) DO UPDATE SET record = excluded.record, expires_at = excluded.expires_at`,
        [record.queue, record.id, JSON.stringify(record), workerTtlMs],
      );
    },
    removeWorker: async (queue, id) => {
      await pool.query(`DELETE FROM ${workers} WHERE queue = $1 AND id = $2`, [queue, id]);
    },
    listWorkers: async (queue) => {
      await pool.query(`DELETE FROM ${workers} WHERE expires_at <= now()`);
      const { rows } = await pool.query<{ record: string }>(
        `SELECT record FROM ${workers} WHERE queue = $1 AND expires_at > now()`,
        [queue],
      );
      return rows.map((r) => JSON.parse(r.record) as WorkerRecord).sort((a, b) => a.id.localeCompare(b.id));
    },
    pause: async (queue, name, json) => {
      await pool.query(
        `INSERT INTO ${paused} (queue, name, paused) VALUES ($1, $2, $3)
         ON CONFLICT (queue, name) DO UPDATE SET paused = excluded.paused`,
        [queue, name, json],
      );
    },
    unpause: async (queue, name) =>
      (await pool.query(`DELETE FROM ${paused} WHERE queue = $1 AND name = $2`, [queue, name])).rowCount > 0,
    listPaused: async (queue) => {
      const { rows } = await pool.query<{ name: string; paused: string }>(
        `SELECT name, paused FROM ${paused} WHERE queue = $1`,
        [queue],
      );
      return new Map(rows.map((r) => [r.name, r.paused]));
    },
  };
}
