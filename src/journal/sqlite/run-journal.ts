import type Database from 'better-sqlite3';
import { RecipeError } from '../../errors/index.js';
import type {
  AttemptCounters,
  CallEntry,
  CallOutcome,
  CancelRequest,
  ExchangeRecord,
  RunEnd,
  RunJournal,
  StepEvent,
} from '../types.js';
import type { Append } from './statements.js';
import { toExchange, type ExchangeRow } from './records.js';
import type { WriteSink } from './write-sink.js';
import { FlushTimer } from '../flush-timer.js';

/** Appends are handed to the writer at once past these (memory stays bounded whatever the run does)... */
const FLUSH_ROWS = 1000;
const FLUSH_BYTES = 4 * 1024 * 1024;
/** ...when the current turn of the event loop is over, past these (batches stay worth a transaction)... */
const IDLE_ROWS = 64;
const IDLE_BYTES = 256 * 1024;
/** ...and at the latest after this long, so that a console following the run sees it move. */
const FLUSH_MS = 100;

/** The reads a held run makes on the store's connection (a resume's lookups). */
export interface ReaderStatements {
  readonly lookup: Database.Statement;
  readonly effects: Database.Statement;
  readonly cancel: Database.Statement;
}

/** Prepares the reads of held runs on a journal connection. */
export function prepareReader(db: Database.Database): ReaderStatements {
  return {
    lookup: db.prepare('SELECT * FROM exchanges WHERE run_id = ? AND call_key = ?'),
    effects: db.prepare('SELECT name, value FROM effects WHERE run_id = ?'),
    cancel: db.prepare('SELECT reason, requested_at, attempt FROM cancels WHERE run_id = ? AND attempt >= ?'),
  };
}

/**
 * The last `seq` given to one of a run's appends. Appends are numbered here, as they are batched, so a run's
 * journal and its parts' journals (JournalStore.holdPart) share one counter: that is why a part is held only
 * in the process that holds its run.
 */
export interface RunSeq {
  last: number;
}

/** What a held run needs from its store. */
export interface HeldRunOwner {
  readonly reader: ReaderStatements;
  readonly sink: WriteSink;
  now(): number;
  /** The run (or part) ended or was let go of: the store drops its hold (and the lock file once the run ended). */
  letGo(journal: SqliteRunJournal, ended: boolean): void;
}

/**
 * A run held by this process on the SQLite journal (or a part of one: its calls join the run's exchanges, its
 * counters go to the `parts` table, and its finish ends the part, not the run). Appends wait in memory and go to the writer (a worker
 * thread with its own connection, see write-sink.ts) in batches, one transaction each (WAL); a write intent
 * goes at once, with everything before it, and `intend` resolves only once it is committed, so it is durable
 * before the write is sent. A process killed between batches loses at most FLUSH_MS of reads and answers,
 * which a resume sends again (reads) or settles (writes, whose intents were durable).
 */
export class SqliteRunJournal implements RunJournal {
  private pending: Append[] = [];
  private pendingBytes = 0;
  private counters: AttemptCounters | null = null;
  private readonly flushTimer = new FlushTimer(() => this.handOver(), FLUSH_MS);
  private done = false;

  constructor(
    private readonly owner: HeldRunOwner,
    readonly run_id: string,
    readonly attempt: number,
    readonly resuming: boolean,
    private readonly seq: RunSeq,
    /** For a part: its name, the key of its counters in `parts`. */
    readonly part?: string,
  ) {}

  async lookup(callKey: string): Promise<ExchangeRecord | undefined> {
    if (!this.resuming) return undefined;
    const row = this.owner.reader.lookup.get(this.run_id, callKey) as ExchangeRow | undefined;
    return row ? toExchange(row) : undefined;
  }

  async intend(call: CallEntry): Promise<void> {
    this.push(call.request.length, this.exchange(call, null));
    await this.sync();
  }

  record(call: CallEntry, outcome: CallOutcome): void | Promise<void> {
    this.push(call.request.length + (outcome.answer?.length ?? 0), this.exchange(call, outcome));
    return this.owner.sink.backlog();
  }

  step(e: StepEvent): void {
    this.push(64, [
      'step',
      this.run_id,
      this.attempt,
      e.step_path,
      ++this.seq.last,
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
    ]);
  }

  effect(name: string, value: unknown): void {
    const text = JSON.stringify(value ?? null);
    this.push(text.length, ['effect', this.run_id, name, this.attempt, text]);
  }

  async effects(): Promise<Record<string, unknown>> {
    await this.sync();
    const out: Record<string, unknown> = {};
    for (const row of this.owner.reader.effects.all(this.run_id) as { name: string; value: string }[])
      out[row.name] = JSON.parse(row.value);
    return out;
  }

  progress(counters: AttemptCounters): void {
    this.counters = counters;
    if (!this.done) this.flushTimer.later();
  }

  noteIdempotencyHonoured(): void {
    this.push(16, ['honoured', this.run_id]);
  }

  async flush(): Promise<void> {
    await this.sync();
  }

  async finish(end: RunEnd): Promise<void> {
    if (this.done) return;
    if (this.part !== undefined) {
      this.counters = end;
      return this.release();
    }
    const status = end.status === 'ok' ? 'succeeded' : end.status === 'failed' ? 'failed' : 'cancelled';
    this.pending.push(
      [
        'endAttempt',
        end.ended_at,
        end.ended_at,
        status,
        end.requests,
        end.writes,
        end.replayed_calls,
        this.run_id,
        this.attempt,
      ],
      [
        'endRun',
        status,
        end.ended_at,
        JSON.stringify(end.outputs),
        end.error === null ? null : JSON.stringify(end.error),
        end.report,
        end.failed_call,
        this.run_id,
      ],
    );
    try {
      await this.sync();
    } finally {
      this.stop(true);
    }
  }

  async cancelRequested(): Promise<CancelRequest | null> {
    const row = this.owner.reader.cancel.get(this.run_id, this.attempt) as CancelRequest | undefined;
    return row ? { reason: row.reason, requested_at: row.requested_at, attempt: row.attempt } : null;
  }

  async release(): Promise<void> {
    if (this.done) return;
    try {
      await this.sync();
    } catch {
      // Letting go never fails: what could not be written is lost, as if the process had died.
    } finally {
      this.stop(false);
    }
  }

  /** Hands everything pending to the writer and waits until it is committed; J009 when a write failed. */
  private async sync(): Promise<void> {
    this.handOver();
    try {
      await this.owner.sink.sync();
    } catch (err) {
      throw new RecipeError('J009', { runId: this.run_id, reason: (err as Error).message }, undefined, {
        cause: err,
      });
    }
  }

  private stop(ended: boolean): void {
    this.done = true;
    this.flushTimer.clear();
    this.owner.letGo(this, ended);
  }

  private exchange(call: CallEntry, outcome: CallOutcome | null): Append {
    return [
      'exchange',
      this.run_id,
      call.call_key,
      ++this.seq.last,
      this.attempt,
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
    ];
  }

  private push(bytes: number, append: Append): void {
    if (this.done) return;
    this.pending.push(append);
    this.pendingBytes += bytes;
    if (this.pending.length >= FLUSH_ROWS || this.pendingBytes >= FLUSH_BYTES) this.handOver();
    else if (this.pending.length >= IDLE_ROWS || this.pendingBytes >= IDLE_BYTES) this.flushTimer.atIdle();
    else this.flushTimer.later();
  }

  /** Gives the pending appends (and the attempt's counters) to the writer as one batch. */
  private handOver(): void {
    this.flushTimer.clear();
    const batch = this.pending;
    const counters = this.counters;
    const bytes = this.pendingBytes;
    if (batch.length === 0 && counters === null) return;
    this.pending = [];
    this.pendingBytes = 0;
    this.counters = null;
    const now = this.owner.now();
    // A part keeps its own counters and leaves the attempt's row (and its liveness) to the run's holder.
    if (this.part !== undefined) {
      if (counters)
        batch.push([
          'partProgress',
          this.run_id,
          this.part,
          counters.requests,
          counters.writes,
          counters.replayed_calls,
        ]);
      if (batch.length === 0) return;
    } else
      batch.push(
        counters
          ? ['progress', counters.requests, counters.writes, counters.replayed_calls, now, this.run_id, this.attempt]
          : ['touch', now, this.run_id, this.attempt],
      );
    this.owner.sink.write(batch, bytes);
  }
}
