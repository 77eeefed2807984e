import { mkdirSync } from 'node:fs';
import { hostname } from 'node:os';
import { dirname } from 'node:path';
import type Database from 'better-sqlite3';
import { displayPath, RecipeError } from '../../errors/index.js';
import { connectSqlite } from '../../sqlite/library.js';
import { openSqliteDatabase, SQLITE_BUSY_TIMEOUT_MS } from '../../sqlite/open-database.js';
import { isWriteInDoubt } from '../in-doubt.js';
import type {
  AttemptRecord,
  AttemptStart,
  CancelRequest,
  ExchangeRecord,
  JournalStore,
  RunFilter,
  RunJournal,
  RunRecord,
  RunStart,
  RunStatus,
  RunSummary,
  SeqRange,
  StepEventRecord,
} from '../types.js';
import {
  toAttempt,
  toExchange,
  toRun,
  toStep,
  toSummary,
  type AttemptRow,
  type ExchangeRow,
  type RunRow,
  type StepRow,
} from './records.js';
import {
  prepareReader,
  SqliteRunJournal,
  type HeldRunOwner,
  type ReaderStatements,
  type RunSeq,
} from './run-journal.js';
import { RunLocks, type RunLock } from './locks.js';
import { isCurrent, migrate } from './schema.js';
import { HandOverSink, InThreadSink, WorkerSink, type WriteSink } from './write-sink.js';

/**
 * A run's counters are its attempts' sums, plus its parts' (holdPart); correlated, so only the rows a listing
 * returns pay for them.
 */
const RUN_COLUMNS = `r.*,
  (SELECT SUM(a.requests) FROM attempts a WHERE a.run_id = r.run_id)
    + COALESCE((SELECT SUM(p.requests) FROM parts p WHERE p.run_id = r.run_id), 0) AS requests,
  (SELECT SUM(a.writes) FROM attempts a WHERE a.run_id = r.run_id)
    + COALESCE((SELECT SUM(p.writes) FROM parts p WHERE p.run_id = r.run_id), 0) AS writes,
  (SELECT SUM(COALESCE(a.ended_at, a.updated_at) - a.started_at) FROM attempts a WHERE a.run_id = r.run_id)
    AS duration_ms`;

/**
 * A run this store holds: its lock, the seq counter its journals share, and who uses the hold: the run's own
 * journal and its parts' (a part may outlive the run's journal; the lock goes when the last of them does).
 */
interface HeldRun {
  readonly lock: RunLock;
  readonly seq: RunSeq;
  main: SqliteRunJournal | null;
  readonly parts: Set<string>;
  /** The run's journal recorded its end: the lock file goes with the hold. */
  ended: boolean;
}

/**
 * The page size of a new journal file. A paging run keeps every page it read (1,000 answers of 33 KB for
 * 100,000 contacts): with SQLite's default 4 KiB each answer is a chain of 9 overflow pages, each its own
 * frame in the write-ahead log, and a checkpoint comes every 4 MB. With 16 KiB pages that run's journaled
 * side took 2,060 ms of CPU against 2,230 ms (7 alternations, bench/README.md); runs of small answers (the
 * fan-out's 2,000 gets) cost the same either way. A journal made with another size keeps it.
 */
const JOURNAL_PAGE_SIZE = 16_384;

/**
 * The run journal on one SQLite file (WAL: readers such as `recipe runs` or a console never wait for a
 * running recipe, and appends are batched into few transactions). Several processes may share the file:
 * each run is held by one of them (see RunLocks), with its parts (holdPart).
 */
export class SqliteJournalStore implements JournalStore {
  /** A dead process's runs are free at once: the OS drops its locks (RunLocks). */
  readonly leaseMs = 0;
  private readonly locks: RunLocks;
  private readonly open = new Set<SqliteRunJournal>();
  private readonly held = new Map<string, HeldRun>();
  private reader: ReaderStatements | undefined;
  private sink: WriteSink | undefined;

  private constructor(
    private readonly db: Database.Database,
    private readonly path: string,
    locksDir: string | null,
    private readonly readOnly = false,
  ) {
    this.locks = new RunLocks(locksDir);
  }

  /**
   * Opens an existing journal read-only (a console): no file is created, nothing is migrated or written;
   * begin, resume and prune refuse (J007). Following a running run works: WAL readers see each commit.
   */
  static openReadOnly(path: string): SqliteJournalStore {
    let db: Database.Database | undefined;
    try {
      // Read-only: the house pragmas are the writer's to set (WAL is a property of the file); only the wait applies.
      db = connectSqlite(path, { readonly: true, fileMustExist: true, timeout: SQLITE_BUSY_TIMEOUT_MS });
      if (!isCurrent(db)) throw new Error('it was written by another version of recipe');
    } catch (err) {
      db?.close();
      throw new RecipeError('J007', { journal: displayPath(path), reason: (err as Error).message }, undefined, {
        cause: err,
      });
    }
    return new SqliteJournalStore(db, path, `${path}-locks`, true);
  }

  /** Opens (creating if needed) the journal at `path` (':memory:' for a private one). J007 when it cannot. */
  static open(path: string): SqliteJournalStore {
    let db: Database.Database | undefined;
    try {
      if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
      // synchronous NORMAL may lose the last commits to a power loss; a write re-sent then still carries the
      // same Idempotency-Key. Runs sharing one journal file wait SQLITE_BUSY_TIMEOUT_MS for each other.
      // 0600: the journal holds read answers (contact emails, note bodies); only its owner reads it.
      db = openSqliteDatabase(path, { private: true, pageSize: JOURNAL_PAGE_SIZE });
      migrate(db);
    } catch (err) {
      db?.close();
      throw new RecipeError('J007', { journal: displayPath(path), reason: (err as Error).message }, undefined, {
        cause: err,
      });
    }
    return new SqliteJournalStore(db, path, path === ':memory:' ? null : `${path}-locks`);
  }

  async begin(start: RunStart): Promise<RunJournal> {
    this.writable();
    const lock = this.locks.acquire(start.run_id);
    if (!lock) throw new RecipeError('J003', { runId: start.run_id, holder: 'another process' });
    try {
      this.db.transaction(() => {
        const exists = this.db.prepare('SELECT 1 FROM runs WHERE run_id = ?').get(start.run_id);
        if (exists) throw new RecipeError('J006', { runId: start.run_id, journal: displayPath(this.path) });
        this.db
          .prepare(
            `INSERT INTO runs (run_id, recipe, file, status, started_at, attempts, dry_run, files, inputs, options, holder)
             VALUES (?, ?, ?, 'running', ?, 1, ?, ?, ?, ?, ?)`,
          )
          .run(
            start.run_id,
            start.recipe,
            start.file,
            start.started_at,
            start.dry_run ? 1 : 0,
            JSON.stringify(start.files),
            JSON.stringify(start.inputs),
            JSON.stringify(start.options),
            holderText(),
          );
        this.insertAttempt(start.run_id, 1, 'run', start.started_at, {});
      })();
    } catch (err) {
      lock.release();
      throw err;
    }
    const hold = this.hold(start.run_id, lock, 0);
    return this.track((hold.main = new SqliteRunJournal(this.owner(), start.run_id, 1, false, hold.seq)));
  }

  async resume(runId: string, a: AttemptStart): Promise<RunJournal> {
    this.writable();
    // Parts this process holds keep the run's lock after its journal let go: the resume takes it over.
    const kept = this.held.get(runId);
    const lock = kept ? (kept.main ? null : kept.lock) : this.locks.acquire(runId);
    if (!lock) {
      const row = this.runRow(runId);
      throw new RecipeError('J003', { runId, holder: describeHolder(row?.holder ?? null) });
    }
    let attempt = 0;
    let lastSeq = 0;
    try {
      this.db.transaction(() => {
        const row = this.runRow(runId);
        if (!row) throw new RecipeError('J001', { runId, journal: displayPath(this.path) });
        attempt = row.attempts + 1;
        this.db
          .prepare(
            `UPDATE runs SET status = 'running', attempts = ?, ended_at = NULL, report = NULL, holder = ?
             WHERE run_id = ?`,
          )
          .run(attempt, holderText(), runId);
        this.insertAttempt(runId, attempt, a.kind, a.started_at, a.options);
        const seqs = this.db
          .prepare(
            `SELECT MAX(s) AS s FROM (SELECT MAX(seq) AS s FROM exchanges WHERE run_id = ?
                                      UNION ALL SELECT MAX(seq) FROM steps WHERE run_id = ?)`,
          )
          .get(runId, runId) as { s: number | null };
        lastSeq = seqs.s ?? 0;
      })();
    } catch (err) {
      if (kept) throw err;
      lock.release();
      if (err instanceof RecipeError && err.code === 'J001') this.locks.remove(runId);
      throw err;
    }
    // With parts held here, their counter is ahead of the database (their last appends may still be pending).
    const hold = kept ?? this.hold(runId, lock, lastSeq);
    hold.ended = false;
    return this.track((hold.main = new SqliteRunJournal(this.owner(), runId, attempt, true, hold.seq)));
  }

  /**
   * A part of a run this process holds (JournalStore.holdPart). Appends are numbered as they are batched, so
   * a part shares its run's counter and is held only where its run is: J011 anywhere else. A part is held
   * once at a time (J003); the run's lock is kept until the run's journal and its parts have all let go.
   */
  async holdPart(runId: string, part: string): Promise<RunJournal> {
    this.writable();
    const row = this.runRow(runId);
    if (!row) throw new RecipeError('J001', { runId, journal: displayPath(this.path) });
    const hold = this.held.get(runId);
    if (!hold) throw new RecipeError('J011', { runId, part, journal: displayPath(this.path) });
    if (hold.parts.has(part))
      throw new RecipeError('J003', { runId: `${runId} (${part})`, holder: `this process, pid ${process.pid}` });
    hold.parts.add(part);
    return this.track(new SqliteRunJournal(this.owner(), runId, row.attempts, true, hold.seq, part));
  }

  async getRun(runId: string): Promise<RunRecord | undefined> {
    const row = this.runRow(runId);
    if (!row) return undefined;
    const held = row.status === 'running' && this.locks.isHeld(runId);
    return toRun(row, this.statusOf(row, held), held);
  }

  async listRuns(filter: RunFilter = {}): Promise<RunSummary[]> {
    const limit = Math.max(1, Math.min(filter.limit ?? 20, 10_000));
    const where: string[] = [];
    const args: unknown[] = [];
    if (filter.recipe !== undefined) {
      where.push('(r.recipe = ? OR r.file = ?)');
      args.push(filter.recipe, filter.recipe);
    }
    // running and interrupted are both stored as running: the lock tells them apart.
    const live = filter.status === 'running' || filter.status === 'interrupted';
    if (filter.status !== undefined) {
      where.push('r.status = ?');
      args.push(live ? 'running' : filter.status);
    }
    if (filter.before !== undefined) {
      const at = Date.parse(filter.before.started_at);
      // An unreadable cursor matches nothing rather than everything (a console passes back what it got).
      if (Number.isNaN(at)) where.push('0');
      else {
        where.push('(r.started_at < ? OR (r.started_at = ? AND r.run_id < ?))');
        args.push(at, at, filter.before.run_id);
      }
    }
    const sql = `SELECT ${RUN_COLUMNS} FROM runs r ${where.length ? `WHERE ${where.join(' AND ')}` : ''}
                 ORDER BY r.started_at DESC, r.run_id DESC ${live ? '' : 'LIMIT ?'}`;
    const rows = this.db.prepare(sql).all(...args, ...(live ? [] : [limit])) as RunRow[];
    const out: RunSummary[] = [];
    for (const row of rows) {
      const status = this.statusOf(row, row.status === 'running' && this.locks.isHeld(row.run_id));
      if (filter.status !== undefined && status !== filter.status) continue;
      out.push(toSummary(row, status));
      if (out.length >= limit) break;
    }
    return out;
  }

  async listAttempts(runId: string): Promise<AttemptRecord[]> {
    const rows = this.db.prepare('SELECT * FROM attempts WHERE run_id = ? ORDER BY attempt').all(runId) as AttemptRow[];
    const held = rows.some((r) => r.status === 'running') && this.locks.isHeld(runId);
    const last = rows[rows.length - 1]?.attempt;
    return rows.map((r) =>
      toAttempt(
        r,
        r.status !== 'running' ? (r.status as RunStatus) : held && r.attempt === last ? 'running' : 'interrupted',
      ),
    );
  }

  async listSteps(runId: string, range: SeqRange = {}): Promise<StepEventRecord[]> {
    const rows = this.db
      .prepare('SELECT * FROM steps WHERE run_id = ? AND seq > ? ORDER BY seq LIMIT ?')
      .all(runId, range.after_seq ?? 0, range.limit ?? -1) as StepRow[];
    return rows.map(toStep);
  }

  async listExchanges(
    runId: string,
    range: SeqRange & { readonly writes_only?: boolean } = {},
  ): Promise<ExchangeRecord[]> {
    const rows = this.db
      .prepare(
        `SELECT * FROM exchanges WHERE run_id = ? AND seq > ? ${range.writes_only ? 'AND write = 1' : ''}
         ORDER BY seq LIMIT ?`,
      )
      .all(runId, range.after_seq ?? 0, range.limit ?? -1) as ExchangeRow[];
    return rows.map(toExchange);
  }

  async getEffects(runId: string): Promise<Record<string, unknown>> {
    const out: Record<string, unknown> = {};
    const rows = this.db.prepare('SELECT name, value FROM effects WHERE run_id = ?').all(runId) as {
      name: string;
      value: string;
    }[];
    for (const r of rows) out[r.name] = JSON.parse(r.value);
    return out;
  }

  async writesInDoubt(runId: string): Promise<ExchangeRecord[]> {
    // The one rule (in-doubt.ts, which the Redis backend applies too) over the flags of the run's writes, then
    // the whole rows of those in doubt only: a run of 100,000 writes does not load 100,000 answers for this.
    const flags = this.db
      .prepare(`SELECT seq, state, doubt, redacted FROM exchanges WHERE run_id = ? AND write = 1 ORDER BY seq`)
      .all(runId) as Pick<ExchangeRow, 'seq' | 'state' | 'doubt' | 'redacted'>[];
    const seqs = flags
      .filter((f) => isWriteInDoubt({ write: true, state: f.state, doubt: f.doubt === 1, redacted: f.redacted === 1 }))
      .map((f) => f.seq);
    const rows: ExchangeRow[] = [];
    for (let i = 0; i < seqs.length; i += 500) {
      const part = seqs.slice(i, i + 500);
      const marks = part.map(() => '?').join(', ');
      const sql = `SELECT * FROM exchanges WHERE run_id = ? AND seq IN (${marks}) ORDER BY seq`;
      rows.push(...(this.db.prepare(sql).all(runId, ...part) as ExchangeRow[]));
    }
    return rows.map(toExchange);
  }

  async dropReadAnswers(runId: string): Promise<number> {
    this.writable();
    if (!this.runRow(runId)) throw new RecipeError('J001', { runId, journal: this.path });
    return this.db
      .prepare('UPDATE exchanges SET answer = NULL WHERE run_id = ? AND write = 0 AND answer IS NOT NULL')
      .run(runId).changes;
  }

  async requestCancel(runId: string, reason: string | null, at: number): Promise<CancelRequest> {
    this.writable();
    const row = this.runRow(runId);
    if (!row) throw new RecipeError('J001', { runId, journal: this.path });
    const status = this.statusOf(row, this.locks.isHeld(runId));
    if (status !== 'running') throw new RecipeError('J020', { runId, status });
    const request: CancelRequest = { reason, requested_at: at, attempt: row.attempts };
    this.db
      .prepare(
        `INSERT INTO cancels (run_id, attempt, reason, requested_at) VALUES (?, ?, ?, ?)
         ON CONFLICT (run_id) DO UPDATE SET attempt = excluded.attempt, reason = excluded.reason,
           requested_at = excluded.requested_at`,
      )
      .run(runId, request.attempt, reason, at);
    return request;
  }

  async prune(before: number, limit?: number): Promise<number> {
    this.writable();
    const candidates = this.db
      .prepare(
        `SELECT run_id, status FROM runs
         WHERE (ended_at IS NOT NULL AND ended_at < ?) OR (status = 'running' AND started_at < ?)
         ORDER BY started_at`,
      )
      .all(before, before) as { run_id: string; status: string }[];
    const ids = candidates
      .filter((c) => c.status !== 'running' || !this.locks.isHeld(c.run_id))
      .map((c) => c.run_id)
      .slice(0, limit ?? Infinity);
    const tables = ['exchanges', 'steps', 'effects', 'parts', 'cancels', 'attempts', 'runs'];
    const statements = tables.map((t) => this.db.prepare(`DELETE FROM ${t} WHERE run_id = ?`));
    // Chunks keep each transaction short: runs being recorded by other processes wait for none of them long.
    for (let i = 0; i < ids.length; i += 50) {
      const chunk = ids.slice(i, i + 50);
      this.db.transaction(() => {
        for (const id of chunk) for (const s of statements) s.run(id);
      })();
      for (const id of chunk) this.locks.remove(id);
    }
    return ids.length;
  }

  async close(): Promise<void> {
    for (const j of [...this.open]) await j.release();
    await this.sink?.close();
    this.locks.releaseAll();
    if (this.db.open) this.db.close();
  }

  private writable(): void {
    if (this.readOnly) throw new RecipeError('J007', { journal: this.path, reason: 'it was opened read-only' });
  }

  private track(j: SqliteRunJournal): SqliteRunJournal {
    this.open.add(j);
    return j;
  }

  private hold(runId: string, lock: RunLock, lastSeq: number): HeldRun {
    const hold: HeldRun = { lock, seq: { last: lastSeq }, main: null, parts: new Set(), ended: false };
    this.held.set(runId, hold);
    return hold;
  }

  /** A journal let go: the run's lock goes with the last journal (run or part) that used it. */
  private letGo(j: SqliteRunJournal, ended: boolean): void {
    this.open.delete(j);
    const hold = this.held.get(j.run_id);
    if (!hold) return;
    if (j.part !== undefined) hold.parts.delete(j.part);
    else if (hold.main === j) {
      hold.main = null;
      hold.ended ||= ended;
    }
    if (hold.main !== null || hold.parts.size > 0) return;
    this.held.delete(j.run_id);
    hold.lock.release();
    if (hold.ended) this.locks.remove(j.run_id);
  }

  private owner(): HeldRunOwner {
    this.reader ??= prepareReader(this.db);
    // An in-memory journal can only be written on this connection; a file journal starts there and moves to
    // a worker thread once it has written enough to be worth one (write-sink.ts, HandOverSink).
    this.sink ??=
      this.path === ':memory:'
        ? new InThreadSink(this.db)
        : new HandOverSink(this.db, () => new WorkerSink(this.path, SQLITE_BUSY_TIMEOUT_MS));
    return {
      reader: this.reader,
      sink: this.sink,
      now: Date.now,
      letGo: (journal, ended) => this.letGo(journal, ended),
    };
  }

  private runRow(runId: string): RunRow | undefined {
    return this.db.prepare(`SELECT ${RUN_COLUMNS} FROM runs r WHERE r.run_id = ?`).get(runId) as RunRow | undefined;
  }

  private statusOf(row: RunRow, held: boolean): RunStatus {
    if (row.status !== 'running') return row.status as RunStatus;
    return held ? 'running' : 'interrupted';
  }

  private insertAttempt(
    runId: string,
    attempt: number,
    kind: AttemptRecord['kind'],
    startedAt: number,
    options: Readonly<Record<string, unknown>>,
  ): void {
    this.db
      .prepare(
        `INSERT INTO attempts (run_id, attempt, kind, started_at, updated_at, status, options)
         VALUES (?, ?, ?, ?, ?, 'running', ?)`,
      )
      .run(runId, attempt, kind, startedAt, startedAt, JSON.stringify(options));
  }
}

function holderText(): string {
  return JSON.stringify({ pid: process.pid, host: hostname(), since: new Date().toISOString() });
}

function describeHolder(text: string | null): string {
  if (text === null) return 'another process';
  const h = JSON.parse(text) as { pid?: number; host?: string; since?: string };
  return `pid ${h.pid ?? '?'} on ${h.host ?? '?'} since ${h.since ?? '?'}`;
}
