import type Database from 'better-sqlite3';
import { RecipeError } from '../../errors/index.js';
import type {
  AttemptCounters,
  CallEntry,
  CallOutcome,
  ExchangeRecord,
  RunEnd,
  RunJournal,
  StepEvent,
} from '../types.js';
import { toExchange, type ExchangeRow } from './rows.js';
import type { RunLock } from './run-locks.js';

/** Appends are written at once past these (memory stays bounded whatever the run does)... */
const FLUSH_ROWS = 1000;
const FLUSH_BYTES = 4 * 1024 * 1024;
/** ...as soon as the event loop is idle past these (the write then overlaps the wait for the service)... */
const IDLE_ROWS = 32;
const IDLE_BYTES = 32 * 1024;
/** ...and at the latest after this long, so that a console following the run sees it move. */
const FLUSH_MS = 100;

const UPSERT_EXCHANGE = `
  INSERT INTO exchanges (run_id, call_key, seq, attempt, step_path, file, line, col, pointer, kind, method, path,
    entity, action, write, idempotency_key, request, state, status, answer, error, doubt, redacted,
    retries, sent_at, latency_ms, settled_by)
  VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
  ON CONFLICT (run_id, call_key) DO UPDATE SET seq = excluded.seq, attempt = excluded.attempt,
    step_path = excluded.step_path, file = excluded.file, line = excluded.line, col = excluded.col,
    pointer = excluded.pointer, kind = excluded.kind, method = excluded.method, path = excluded.path,
    entity = excluded.entity, action = excluded.action, write = excluded.write,
    idempotency_key = excluded.idempotency_key, request = excluded.request,
    state = excluded.state, status = excluded.status, answer = excluded.answer, error = excluded.error,
    doubt = excluded.doubt, redacted = excluded.redacted, retries = excluded.retries, sent_at = excluded.sent_at,
    latency_ms = excluded.latency_ms, settled_by = excluded.settled_by`;

const UPSERT_STEP = `
  INSERT INTO steps (run_id, attempt, step_path, seq, step_id, kind, file, line, col, pointer, depth, status,
    started_at, duration_ms, error_code)
  VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
  ON CONFLICT (run_id, attempt, step_path) DO UPDATE SET seq = excluded.seq, status = excluded.status,
    duration_ms = excluded.duration_ms, error_code = excluded.error_code`;

const UPSERT_EFFECT = `INSERT INTO effects (run_id, name, attempt, value) VALUES (?, ?, ?, ?)
  ON CONFLICT (run_id, name) DO UPDATE SET attempt = excluded.attempt, value = excluded.value`;

/** The statements a held run writes with, prepared once per journal connection. */
export interface WriterStatements {
  readonly exchange: Database.Statement;
  readonly step: Database.Statement;
  readonly effect: Database.Statement;
  readonly lookup: Database.Statement;
  readonly effects: Database.Statement;
  readonly progress: Database.Statement;
  readonly touch: Database.Statement;
  readonly idempotency: Database.Statement;
  readonly endAttempt: Database.Statement;
  readonly endRun: Database.Statement;
}

/** Prepares the writer's statements on a journal connection. */
export function prepareWriter(db: Database.Database): WriterStatements {
  return {
    exchange: db.prepare(UPSERT_EXCHANGE),
    step: db.prepare(UPSERT_STEP),
    effect: db.prepare(UPSERT_EFFECT),
    lookup: db.prepare('SELECT * FROM exchanges WHERE run_id = ? AND call_key = ?'),
    effects: db.prepare('SELECT name, value FROM effects WHERE run_id = ?'),
    progress: db.prepare(
      'UPDATE attempts SET requests = ?, writes = ?, replayed_calls = ?, updated_at = ? WHERE run_id = ? AND attempt = ?',
    ),
    touch: db.prepare('UPDATE attempts SET updated_at = ? WHERE run_id = ? AND attempt = ?'),
    idempotency: db.prepare(`UPDATE runs SET idempotency = 'honoured' WHERE run_id = ?`),
    endAttempt: db.prepare(
      `UPDATE attempts SET ended_at = ?, updated_at = ?, status = ?, requests = ?, writes = ?, replayed_calls = ?
       WHERE run_id = ? AND attempt = ?`,
    ),
    endRun: db.prepare(
      `UPDATE runs SET status = ?, ended_at = ?, outputs = ?, error = ?, report = ?, failed_call = ?, holder = NULL
       WHERE run_id = ?`,
    ),
  };
}

/** What a finished or released run tells its store. */
export interface HeldRunOwner {
  readonly db: Database.Database;
  readonly statements: WriterStatements;
  now(): number;
  /** The run ended or was let go of: drop the lock (and its file when the run ended). */
  letGo(runId: string, ended: boolean): void;
}

/**
 * A run held by this process on the SQLite journal. Appends wait in memory and are written in one
 * transaction (WAL) per batch; a write intent is written at once, with everything before it, so that it is
 * durable before the write is sent. A process killed between batches loses at most FLUSH_MS of reads and
 * answers, which a resume sends again (reads) or settles (writes, whose intents were durable).
 */
export class SqliteRunJournal implements RunJournal {
  private pending: Array<() => void> = [];
  private pendingBytes = 0;
  private seq: number;
  private counters: AttemptCounters | null = null;
  private timer: NodeJS.Timeout | null = null;
  private idle: NodeJS.Immediate | null = null;
  private done = false;
  /** A write that failed in the background (a full disk): the next call that can report it throws it. */
  private failure: Error | null = null;

  constructor(
    private readonly owner: HeldRunOwner,
    private readonly lock: RunLock,
    readonly run_id: string,
    readonly attempt: number,
    readonly resuming: boolean,
    lastSeq: number,
  ) {
    this.seq = lastSeq;
  }

  async lookup(callKey: string): Promise<ExchangeRecord | undefined> {
    if (!this.resuming) return undefined;
    const row = this.owner.statements.lookup.get(this.run_id, callKey) as ExchangeRow | undefined;
    return row ? toExchange(row) : undefined;
  }

  async intend(call: CallEntry): Promise<void> {
    this.push(call.request.length, this.exchangeWriter(call, null));
    this.flushNow();
    this.throwFailure();
  }

  record(call: CallEntry, outcome: CallOutcome): void {
    this.push(call.request.length + (outcome.answer?.length ?? 0), this.exchangeWriter(call, outcome));
  }

  step(e: StepEvent): void {
    const seq = ++this.seq;
    const s = this.owner.statements.step;
    const runId = this.run_id;
    const attempt = this.attempt;
    this.push(64, () =>
      s.run(
        runId,
        attempt,
        e.step_path,
        seq,
        e.step_id,
        e.kind,
        e.file,
        e.line,
        e.column,
        e.pointer,
        e.depth,
        e.status,
        e.started_at,
        e.duration_ms,
        e.error_code,
      ),
    );
  }

  effect(name: string, value: unknown): void {
    const text = JSON.stringify(value ?? null);
    this.push(text.length, () => this.owner.statements.effect.run(this.run_id, name, this.attempt, text));
  }

  async effects(): Promise<Record<string, unknown>> {
    const out: Record<string, unknown> = {};
    for (const row of this.owner.statements.effects.all(this.run_id) as { name: string; value: string }[])
      out[row.name] = JSON.parse(row.value);
    return out;
  }

  progress(counters: AttemptCounters): void {
    this.counters = counters;
    this.schedule();
  }

  noteIdempotencyHonoured(): void {
    this.push(16, () => this.owner.statements.idempotency.run(this.run_id));
  }

  async flush(): Promise<void> {
    this.flushNow();
    this.throwFailure();
  }

  async finish(end: RunEnd): Promise<void> {
    if (this.done) return;
    this.flushNow();
    this.throwFailure();
    const st = this.owner.statements;
    const status = end.status === 'ok' ? 'succeeded' : end.status === 'failed' ? 'failed' : 'cancelled';
    this.owner.db.transaction(() => {
      st.endAttempt.run(
        end.ended_at,
        end.ended_at,
        status,
        end.requests,
        end.writes,
        end.replayed_calls,
        this.run_id,
        this.attempt,
      );
      st.endRun.run(
        status,
        end.ended_at,
        JSON.stringify(end.outputs),
        end.error === null ? null : JSON.stringify(end.error),
        end.report,
        end.failed_call,
        this.run_id,
      );
    })();
    this.stop(true);
  }

  async release(): Promise<void> {
    if (this.done) return;
    this.flushNow();
    this.stop(false);
  }

  private stop(ended: boolean): void {
    this.done = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    if (this.idle) clearImmediate(this.idle);
    this.idle = null;
    this.lock.release();
    this.owner.letGo(this.run_id, ended);
  }

  private exchangeWriter(call: CallEntry, outcome: CallOutcome | null): () => void {
    const seq = ++this.seq;
    const s = this.owner.statements.exchange;
    const runId = this.run_id;
    const attempt = this.attempt;
    return () =>
      s.run(
        runId,
        call.call_key,
        seq,
        attempt,
        call.step_path,
        call.file,
        call.line,
        call.column,
        call.pointer,
        call.kind,
        call.method,
        call.path,
        call.entity,
        call.action,
        call.write ? 1 : 0,
        call.idempotency_key,
        call.request,
        outcome?.state ?? 'intent',
        outcome?.status ?? null,
        outcome?.answer ?? null,
        outcome?.error ?? null,
        outcome?.doubt ? 1 : 0,
        outcome?.redacted ? 1 : 0,
        outcome?.retries ?? 0,
        outcome?.sent_at ?? null,
        outcome?.latency_ms ?? null,
        outcome?.settled_by ?? null,
      );
  }

  private push(bytes: number, write: () => void): void {
    if (this.done) return;
    this.pending.push(write);
    this.pendingBytes += bytes;
    if (this.pending.length >= FLUSH_ROWS || this.pendingBytes >= FLUSH_BYTES) this.flushNow();
    else if (this.pending.length >= IDLE_ROWS || this.pendingBytes >= IDLE_BYTES) this.whenIdle();
    else this.schedule();
  }

  /**
   * Writes once the current turn of the event loop is over: by then the interpreter has sent the requests
   * this turn made, so SQLite works while the service does, not while the run waits for SQLite.
   */
  private whenIdle(): void {
    if (this.idle || this.done) return;
    this.idle = setImmediate(() => {
      this.idle = null;
      this.flushNow();
    });
    this.idle.unref();
  }

  private schedule(): void {
    if (this.timer || this.idle || this.done) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      this.flushNow();
    }, FLUSH_MS);
    this.timer.unref();
  }

  /** Writes what is pending; a failure is kept for the next intend/flush/finish (never thrown from a timer). */
  private flushNow(): void {
    try {
      this.writePending();
    } catch (err) {
      this.failure ??= err instanceof Error ? err : new Error(String(err));
    }
  }

  private throwFailure(): void {
    if (this.failure)
      throw new RecipeError('J009', { runId: this.run_id, reason: this.failure.message }, undefined, {
        cause: this.failure,
      });
  }

  private writePending(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    if (this.idle) clearImmediate(this.idle);
    this.idle = null;
    const writes = this.pending;
    const counters = this.counters;
    if (writes.length === 0 && counters === null) return;
    this.pending = [];
    this.pendingBytes = 0;
    this.counters = null;
    const st = this.owner.statements;
    const now = this.owner.now();
    this.owner.db.transaction(() => {
      for (const w of writes) w();
      if (counters)
        st.progress.run(counters.requests, counters.writes, counters.replayed_calls, now, this.run_id, this.attempt);
      else st.touch.run(now, this.run_id, this.attempt);
    })();
  }
}
