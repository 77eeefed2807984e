import { randomBytes } from 'node:crypto';
import type { SqlPool, SqlQuery } from './client.js';
import type { Statements } from './statements.js';

/**
 * Who holds a run (or a part of one) on PostgreSQL: a row of `leases` with an expiry, measured on the
 * database's clock (clock_timestamp()), that only its holder (who knows the random token) extends: a third of
 * the way into each period, and with every batch it appends. A worker that dies, however it dies, stops
 * extending it, and the run is free once the period runs out; a worker that stalls longer loses it, and its
 * appends (which check the token in their own transaction, first) then fail instead of mixing two holders.
 *
 * Why a row with an expiry and not a session advisory lock (pg_advisory_lock), which PostgreSQL drops at once
 * when its session ends: an advisory lock lives in one connection, so each held run would pin a connection of
 * its own for the whole run (a worker running 50 runs, 50 connections), it cannot be used through a pooler in
 * transaction mode (PgBouncer, RDS Proxy), and a connection dropped by a network blip frees the run silently
 * while the worker goes on, so every append would still have to check that it is held. A lease row works on
 * any connection of a pool, its fence is one indexed UPDATE in the append's own transaction, and its expiry is
 * the database's clock, so workers whose clocks disagree still agree on it. The price: a dead worker's run is
 * free only once its lease runs out (leaseMs, 30 s by default), not at once.
 */
export class Lease {
  readonly token = randomBytes(12).toString('hex');
  private timer: NodeJS.Timeout | null = null;
  private lostAt: number | null = null;

  constructor(
    private readonly pool: SqlPool,
    private readonly sql: Statements,
    readonly runId: string,
    /** '' for the run itself, else the part's name. */
    readonly part: string,
    readonly ms: number,
  ) {}

  /** Takes the lease in `tx` (the transaction that takes hold of the run); false when someone holds it. */
  async take(tx: SqlQuery): Promise<boolean> {
    const { rows } = await tx.query(this.sql.takeLease, [this.runId, this.part, this.token, this.ms]);
    return rows.length === 1;
  }

  /** Extends the lease in `tx` (an append's transaction, before its writes); false when it was lost. */
  async extend(tx: SqlQuery): Promise<boolean> {
    const { rowCount } = await tx.query(this.sql.renewLease, [this.runId, this.part, this.token, this.ms]);
    if (rowCount !== 1) this.lostAt ??= Date.now();
    return rowCount === 1;
  }

  /** Starts renewing (once the transaction that took it has committed). */
  keep(): void {
    this.timer = setInterval(() => void this.renew(), Math.max(50, Math.floor(this.ms / 3)));
    this.timer.unref();
  }

  /** True once a renewal found the lease taken or run out. */
  get lost(): boolean {
    return this.lostAt !== null;
  }

  private async renew(): Promise<void> {
    try {
      if (!(await this.extend(this.pool))) this.stop();
    } catch {
      // PostgreSQL unreachable for a moment: the next renewal tries again; the appends will say if it is gone.
    }
  }

  private stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  /** Stops renewing and deletes the row if it is still ours. */
  async release(): Promise<void> {
    this.stop();
    await this.pool.query(this.sql.releaseLease, [this.runId, this.part, this.token]).catch(() => undefined);
  }

  /** Stops renewing without deleting (the transaction that ended the run deleted it). */
  drop(): void {
    this.stop();
  }
}
