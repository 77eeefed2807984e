import { hostname } from 'node:os';
import { RecipeError } from '../../errors/index.js';
import { isWriteInDoubt } from '../in-doubt.js';
import { PathCodec } from '../path-codec.js';
import type {
  HeldLease,
  AttemptRecord,
  CancelRequest,
  AttemptStart,
  ExchangeRecord,
  JournalStore,
  RunFilter,
  RunJournal,
  RunRecord,
  RunStart,
  RunSummary,
  SeqRange,
  StepEventRecord,
} from '../types.js';
import { openSqlPool, type SqlPool, type SqlQuery } from './client.js';
import { Lease } from './locks.js';
import {
  toAttempts,
  toExchange,
  toRun,
  toStep,
  toSummary,
  wholeMs,
  type AttemptRow,
  type ExchangeRow,
  type RunRow,
  type StepRow,
} from './records.js';
import { PostgresRunJournal, type PostgresRunOwner } from './run-journal.js';
import { checkSchemaName, DEFAULT_JOURNAL_SCHEMA, migrate } from './schema.js';
import { statementsFor, type Statements } from './statements.js';

/** How the PostgreSQL journal is set up. */
export interface PostgresJournalOptions {
  /** The schema its tables live in (default recipe_journal); one journal per schema, in any database. */
  readonly schema?: string;
  /** The recipes directory: recipe paths are stored relative to it, so every worker reads them as its own. */
  readonly recipesDir?: string;
  /**
   * How long a run stays held after its holder stops renewing (default 30 s): a worker that dies lets go of
   * its runs at most this long after. Keep it no longer than the queue's lock duration, so that by the time
   * the queue hands a stalled job to another worker the run is free to resume.
   */
  readonly leaseMs?: number;
  /** Said in `holder` (default host:pid). */
  readonly holderName?: string;
  /** Connections at most (default 10). */
  readonly maxConnections?: number;
}

/**
 * The run journal on PostgreSQL, shared by a fleet of workers: any worker resumes a run another began. The
 * same tables as the SQLite backend in a schema of its own (schema.ts: versioned migrations applied at open),
 * runs held through leases on the database's clock (locks.ts), appends batched into transactions fenced by the
 * lease (run-journal.ts). Acknowledged means committed: an `intend` or a flush that resolved survives a crash
 * of PostgreSQL (each batch's transaction sets synchronous_commit on, see schema.ts).
 */
export class PostgresJournalStore implements JournalStore {
  /** How long a run stays held after its holder stops renewing. */
  readonly leaseMs: number;
  private readonly sql: Statements;
  private readonly paths: PathCodec;
  private readonly open = new Set<PostgresRunJournal>();

  private constructor(
    private readonly pool: SqlPool,
    private readonly schema: string,
    private readonly options: PostgresJournalOptions,
  ) {
    this.sql = statementsFor(schema);
    this.paths = new PathCodec(options.recipesDir);
    this.leaseMs = options.leaseMs ?? 30_000;
  }

  /**
   * Connects to `url`, brings the journal's schema up to date (safe with several workers starting at once)
   * and returns the store; J007 with PostgreSQL's reason when it cannot (the URL's password never shown).
   */
  static async open(url: string, options: PostgresJournalOptions = {}): Promise<PostgresJournalStore> {
    let pool: SqlPool | undefined;
    const schema = options.schema ?? DEFAULT_JOURNAL_SCHEMA;
    try {
      checkSchemaName(schema);
      pool = await openSqlPool(url, {
        ...(options.maxConnections !== undefined ? { max: options.maxConnections } : {}),
        applicationName: 'recipe journal',
      });
      await migrate(pool, schema);
    } catch (err) {
      await pool?.end();
      throw new RecipeError(
        'J007',
        { journal: `${pool?.where ?? 'postgres'} (schema ${schema})`, reason: (err as Error).message },
        undefined,
        { cause: err },
      );
    }
    return new PostgresJournalStore(pool, schema, options);
  }

  async begin(start: RunStart): Promise<RunJournal> {
    const lease = this.lease(start.run_id, '');
    await this.inTransaction(async (tx) => {
      const files = start.files.map((f) => ({ ...f, path: this.paths.store(f.path) }));
      const inserted = await tx.query(this.sql.insertRun, [
        start.run_id,
        start.recipe,
        this.paths.store(start.file),
        wholeMs(start.started_at),
        start.dry_run,
        JSON.stringify(files),
        JSON.stringify(start.inputs),
        JSON.stringify(start.options),
        this.holder(),
      ]);
      if (inserted.rows.length === 0) throw new RecipeError('J006', { runId: start.run_id, journal: this.where() });
      // A lease left by a pruned run of the same id, not yet run out.
      if (!(await lease.take(tx))) throw new RecipeError('J003', { runId: start.run_id, holder: 'another worker' });
      await tx.query(this.sql.insertAttempt, [start.run_id, 1, 'run', wholeMs(start.started_at), '{}']);
    });
    return this.held(lease, start.run_id, 1, false);
  }

  async resume(runId: string, a: AttemptStart): Promise<RunJournal> {
    const lease = this.lease(runId, '');
    const attempt = await this.inTransaction(async (tx) => {
      const { rows } = await tx.query<{ attempts: number; holder: string | null }>(this.sql.lockRun, [runId]);
      const row = rows[0];
      if (!row) throw new RecipeError('J001', { runId, journal: this.where() });
      if (!(await lease.take(tx))) throw new RecipeError('J003', { runId, holder: describeHolder(row.holder) });
      const n = row.attempts + 1;
      await tx.query(this.sql.resumeRun, [runId, n, this.holder()]);
      await tx.query(this.sql.insertAttempt, [runId, n, a.kind, wholeMs(a.started_at), JSON.stringify(a.options)]);
      return n;
    });
    return this.held(lease, runId, attempt, true);
  }

  /**
   * Holds a part of a run for any worker (a chunk of a distributed foreach): its calls join the run's
   * exchanges (lookups replay them when the part runs again), its counters join the run's totals. The part
   * has its own lease, so parts run side by side and a dead worker's part is free once its lease runs out.
   */
  async holdPart(runId: string, part: string): Promise<RunJournal> {
    const lease = this.lease(runId, part);
    const attempt = await this.inTransaction(async (tx) => {
      const { rows } = await tx.query<{ attempts: number }>(this.sql.runAttempts, [runId]);
      const row = rows[0];
      if (!row) throw new RecipeError('J001', { runId, journal: this.where() });
      if (!(await lease.take(tx)))
        throw new RecipeError('J003', { runId: `${runId} (${part})`, holder: 'another worker' });
      return row.attempts;
    });
    return this.held(lease, runId, attempt, true, part);
  }

  /**
   * Marks the parts whose counters the run's attempt now carries (a distributed foreach gathered them): the run's
   * totals count them once, through the attempt. One statement, so a crash folds all of them or none.
   */
  async foldParts(runId: string, parts: readonly string[]): Promise<void> {
    if (parts.length === 0) return;
    try {
      await this.pool.query(this.sql.foldParts, [runId, [...parts]]);
    } catch (err) {
      throw this.failed(err);
    }
  }

  async getRun(runId: string): Promise<RunRecord | undefined> {
    const { rows } = await this.read<RunRow>(
      `SELECT ${this.sql.runColumns} FROM ${this.schema}.runs r WHERE r.run_id = $1`,
      [runId],
    );
    return rows[0] && toRun(this.paths, rows[0]);
  }

  async listRuns(filter: RunFilter = {}): Promise<RunSummary[]> {
    const limit = Math.max(1, Math.min(filter.limit ?? 20, 10_000));
    const where: string[] = [];
    const args: unknown[] = [];
    const arg = (v: unknown): string => {
      args.push(v);
      return `$${args.length}`;
    };
    if (filter.recipe !== undefined) where.push(`(r.recipe = ${arg(filter.recipe)} OR r.file = $${args.length})`);
    if (filter.status !== undefined) {
      // running and interrupted are both stored as running: the lease tells them apart (`shown`).
      const live = filter.status === 'running' || filter.status === 'interrupted';
      where.push(`r.status = ${arg(live ? 'running' : filter.status)}`);
    }
    if (filter.before !== undefined) {
      const at = Date.parse(filter.before.started_at);
      // An unreadable cursor matches nothing rather than everything (a console passes back what it got).
      if (Number.isNaN(at)) return [];
      where.push(
        `(r.started_at < ${arg(at)} OR (r.started_at = $${args.length} AND r.run_id < ${arg(filter.before.run_id)}))`,
      );
    }
    const shown = filter.status !== undefined ? `WHERE q.shown = ${arg(filter.status)}` : '';
    const text = `SELECT * FROM (SELECT ${this.sql.runColumns} FROM ${this.schema}.runs r
        ${where.length ? `WHERE ${where.join(' AND ')}` : ''}) q
      ${shown} ORDER BY q.started_at DESC, q.run_id DESC LIMIT ${arg(limit)}`;
    const { rows } = await this.read<RunRow>(text, args);
    return rows.map((r) => toSummary(this.paths, r));
  }

  async listAttempts(runId: string): Promise<AttemptRecord[]> {
    const [{ rows }, held] = await Promise.all([
      this.read<AttemptRow>(this.sql.attempts, [runId]),
      this.read<{ held: boolean }>(this.sql.runHeld, [runId]),
    ]);
    return toAttempts(rows, held.rows[0]?.held === true);
  }

  async listSteps(runId: string, range: SeqRange = {}): Promise<StepEventRecord[]> {
    const { rows } = await this.read<StepRow>(this.sql.stepsAfter, [runId, range.after_seq ?? 0, limitOf(range)]);
    return rows.map((r) => toStep(this.paths, r));
  }

  async listExchanges(
    runId: string,
    range: SeqRange & { readonly writes_only?: boolean } = {},
  ): Promise<ExchangeRecord[]> {
    const text = range.writes_only ? this.sql.writesAfter : this.sql.exchangesAfter;
    const { rows } = await this.read<ExchangeRow>(text, [runId, range.after_seq ?? 0, limitOf(range)]);
    return rows.map((r) => toExchange(this.paths, r));
  }

  async getEffects(runId: string): Promise<Record<string, unknown>> {
    const { rows } = await this.read<{ name: string; value: string }>(this.sql.effectsOf, [runId]);
    const out: Record<string, unknown> = {};
    for (const r of rows) out[r.name] = JSON.parse(r.value);
    return out;
  }

  async writesInDoubt(runId: string): Promise<ExchangeRecord[]> {
    // The one rule (in-doubt.ts) over the flags of the run's writes, then the whole rows of those in doubt only.
    const flags = await this.read<{ seq: number; state: ExchangeRow['state']; doubt: boolean; redacted: boolean }>(
      this.sql.writeFlags,
      [runId],
    );
    const seqs = flags.rows.filter((f) => isWriteInDoubt({ write: true, ...f })).map((f) => f.seq);
    if (seqs.length === 0) return [];
    const { rows } = await this.read<ExchangeRow>(this.sql.exchangesBySeq, [runId, seqs]);
    return rows.map((r) => toExchange(this.paths, r));
  }

  async dropReadAnswers(runId: string): Promise<number> {
    if (!(await this.getRun(runId))) throw new RecipeError('J001', { runId, journal: this.where() });
    return (await this.pool.query(this.sql.dropReadAnswers, [runId])).rowCount ?? 0;
  }

  async requestCancel(runId: string, reason: string | null, at: number): Promise<CancelRequest> {
    const { rows } = await this.read<RunRow>(
      `SELECT ${this.sql.runColumns} FROM ${this.schema}.runs r WHERE r.run_id = $1`,
      [runId],
    );
    const row = rows[0];
    if (!row) throw new RecipeError('J001', { runId, journal: this.where() });
    if (row.shown !== 'running') throw new RecipeError('J020', { runId, status: row.shown });
    const request: CancelRequest = { reason, requested_at: at, attempt: Number(row.attempts) };
    await this.pool.query(this.sql.requestCancel, [runId, request.attempt, reason, at]);
    return request;
  }

  async prune(before: number, limit?: number): Promise<number> {
    // One transaction: the runs are locked as they are chosen, so a worker resuming one meanwhile waits, then
    // finds it gone (J001); a run a worker holds is never chosen. With `limit`, the oldest first.
    return this.inTransaction(async (tx) => {
      const { rows } = await tx.query<{ run_id: string }>(this.sql.prunable, [before, limit ?? null]);
      const ids = rows.map((r) => r.run_id);
      if (ids.length === 0) return 0;
      for (const text of this.sql.pruneTables) await tx.query(text, [ids]);
      return ids.length;
    });
  }

  async close(): Promise<void> {
    for (const j of [...this.open]) await j.release();
    await this.pool.end();
  }

  private lease(runId: string, part: string): Lease {
    return new Lease(this.pool, this.sql, runId, part, this.leaseMs);
  }

  private held(lease: Lease, runId: string, attempt: number, resuming: boolean, part?: string): PostgresRunJournal {
    lease.keep();
    const journal = new PostgresRunJournal(this.owner(), lease, runId, attempt, resuming, part);
    this.open.add(journal);
    return journal;
  }

  private owner(): PostgresRunOwner {
    return { pool: this.pool, sql: this.sql, paths: this.paths, letGo: (journal) => this.open.delete(journal) };
  }

  /** The leases held now, with the time left on each (`recipe fleet status`), on the database's clock. */
  async leases(): Promise<HeldLease[]> {
    const { rows } = await this.read<{ run_id: string; part: string; holder: string | null; expires_in_ms: number }>(
      this.sql.liveLeases,
      [],
    );
    return rows
      .map((r) => ({
        run_id: r.run_id,
        part: r.part === '' ? null : r.part,
        holder: r.holder ? ((JSON.parse(r.holder) as { worker?: string }).worker ?? null) : null,
        expires_in_ms: r.expires_in_ms,
      }))
      .sort((a, b) => a.run_id.localeCompare(b.run_id) || (a.part ?? '').localeCompare(b.part ?? ''));
  }

  /** A transaction; a failure that is not ours (PostgreSQL unreachable, a constraint) becomes J007. */
  private async inTransaction<T>(work: (tx: SqlQuery) => Promise<T>): Promise<T> {
    try {
      return await this.pool.transaction(work);
    } catch (err) {
      throw this.failed(err);
    }
  }

  private async read<R extends object>(text: string, args: readonly unknown[]): Promise<{ rows: R[] }> {
    try {
      return await this.pool.query<R>(text, args);
    } catch (err) {
      throw this.failed(err);
    }
  }

  private failed(err: unknown): Error {
    if (err instanceof RecipeError) return err;
    return new RecipeError('J007', { journal: this.where(), reason: (err as Error).message }, undefined, {
      cause: err,
    });
  }

  private where(): string {
    return `${this.pool.where} (schema ${this.schema})`;
  }

  private holder(): string {
    return JSON.stringify({
      worker: this.options.holderName ?? `${hostname()}:${process.pid}`,
      pid: process.pid,
      host: hostname(),
      since: new Date().toISOString(),
    });
  }
}

/** A range's limit as SQL takes it: NULL is no limit. */
function limitOf(range: SeqRange): number | null {
  return range.limit === undefined || range.limit < 0 ? null : range.limit;
}

function describeHolder(text: string | null): string {
  if (!text) return 'another worker';
  const h = JSON.parse(text) as { worker?: string; since?: string };
  return `worker ${h.worker ?? '?'} since ${h.since ?? '?'}`;
}
