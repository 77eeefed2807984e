import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { openSqliteDatabase } from '../sqlite/open-database.js';

type Database = ReturnType<typeof openSqliteDatabase>;

/**
 * Which run each delivery started, and how each result callback went: a SQLite file beside the run journal
 * (default .recipe/triggers.db). The primary key (trigger, delivery_id) is what makes "one run per delivery"
 * hold, across concurrent requests and across servers sharing the file: the insert that wins names the run,
 * every other one reads that run back. No check-then-insert.
 */
export class DeliveryStore {
  private readonly db: Database;

  constructor(path: string) {
    if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
    this.db = openSqliteDatabase(path);
    this.db.exec(`
      CREATE TABLE IF NOT EXISTS deliveries (
        trigger TEXT NOT NULL,
        delivery_id TEXT NOT NULL,
        run_id TEXT NOT NULL,
        received_at INTEGER NOT NULL,
        PRIMARY KEY (trigger, delivery_id)
      ) WITHOUT ROWID;
      CREATE TABLE IF NOT EXISTS callbacks (
        run_id TEXT PRIMARY KEY,
        delivery_id TEXT NOT NULL,
        url TEXT NOT NULL,
        state TEXT NOT NULL,
        attempts INTEGER NOT NULL,
        last_status INTEGER,
        last_error TEXT,
        updated_at INTEGER NOT NULL
      ) WITHOUT ROWID;`);
  }

  /**
   * Claims a delivery for `runId`: `{runId, fresh: true}` when this call recorded it, else the run an earlier
   * claim recorded (`fresh: false`) and `runId` is not used.
   */
  claim(trigger: string, deliveryId: string, runId: string, now: number): { runId: string; fresh: boolean } {
    const inserted = this.db
      .prepare('INSERT OR IGNORE INTO deliveries (trigger, delivery_id, run_id, received_at) VALUES (?, ?, ?, ?)')
      .run(trigger, deliveryId, runId, now);
    if (inserted.changes === 1) return { runId, fresh: true };
    const row = this.db
      .prepare('SELECT run_id FROM deliveries WHERE trigger = ? AND delivery_id = ?')
      .get(trigger, deliveryId) as { run_id: string };
    return { runId: row.run_id, fresh: false };
  }

  /** Forgets a claim whose run could not be started (the fleet was unreachable): a redelivery claims it again. */
  release(trigger: string, deliveryId: string): void {
    this.db.prepare('DELETE FROM deliveries WHERE trigger = ? AND delivery_id = ?').run(trigger, deliveryId);
  }

  /** Counts the deliveries recorded for a trigger (tests and `recipe triggers` status lines). */
  count(trigger: string): number {
    const row = this.db.prepare('SELECT count(*) AS n FROM deliveries WHERE trigger = ?').get(trigger) as {
      n: number;
    };
    return row.n;
  }

  /** Records the state of a run's result callback (one row per run: its one delivery id). */
  noteCallback(c: CallbackRecord): void {
    this.db
      .prepare(
        `INSERT INTO callbacks (run_id, delivery_id, url, state, attempts, last_status, last_error, updated_at)
         VALUES (@run_id, @delivery_id, @url, @state, @attempts, @last_status, @last_error, @updated_at)
         ON CONFLICT (run_id) DO UPDATE SET state = excluded.state, attempts = excluded.attempts,
           last_status = excluded.last_status, last_error = excluded.last_error, updated_at = excluded.updated_at`,
      )
      .run(c);
  }

  /** The result callback of a run, if it has one. */
  callbackOf(runId: string): CallbackRecord | undefined {
    return this.db.prepare('SELECT * FROM callbacks WHERE run_id = ?').get(runId) as CallbackRecord | undefined;
  }

  close(): void {
    this.db.close();
  }
}

/** A result callback's row: `sending` until it is `delivered` or `failed` after its last attempt. */
export interface CallbackRecord {
  readonly run_id: string;
  readonly delivery_id: string;
  readonly url: string;
  readonly state: 'sending' | 'delivered' | 'failed';
  readonly attempts: number;
  readonly last_status: number | null;
  readonly last_error: string | null;
  readonly updated_at: number;
}
