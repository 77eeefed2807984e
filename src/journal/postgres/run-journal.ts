import { RecipeError } from '../../errors/index.js';
import { FlushTimer } from '../flush-timer.js';
import type { PathCodec } from '../path-codec.js';
import type {
  AttemptCounters,
  CallEntry,
  CallOutcome,
  ExchangeRecord,
  RunEnd,
  RunJournal,
  StepEvent,
} from '../types.js';
import type { SqlPool } from './client.js';
import type { Lease } from './locks.js';
import {
  exchangeInput,
  stepInput,
  toExchange,
  wholeMs,
  type ExchangeInput,
  type ExchangeRow,
  type StepInput,
} from './records.js';
import type { Statements } from './statements.js';

/** Appends go to PostgreSQL at once past these, else at the end of the event loop's turn or after FLUSH_MS. */
const FLUSH_OPS = 2000;
const FLUSH_BYTES = 1024 * 1024;
const FLUSH_MS = 100;
/** Producers wait (record() returns a Promise) while this much is on its way to PostgreSQL, until below LOW. */
const HIGH_WATER = 32 * 1024 * 1024;
const LOW_WATER = 8 * 1024 * 1024;

/** What a held run needs from its store. */
export interface PostgresRunOwner {
  readonly pool: SqlPool;
  readonly sql: Statements;
  readonly paths: PathCodec;
  /** The run (or part) was let go of. */
  letGo(journal: PostgresRunJournal): void;
}

/** The appends of one batch. A call key (or a step) appended twice keeps its latest state and its latest place. */
class Batch {
  readonly exchanges = new Map<string, ExchangeInput>();
  readonly steps = new Map<string, StepInput>();
  readonly effects = new Map<string, { name: string; attempt: number; value: string }>();
  honoured = false;
  /** Events numbered so far (exchanges and steps share the run's order). */
  events = 0;
  ops = 0;
  bytes = 0;

  get empty(): boolean {
    return this.ops === 0;
  }
}

/** How the run ends, written with the last batch. */
interface Ending {
  readonly attempt: number;
  readonly status: 'succeeded' | 'failed' | 'cancelled';
  readonly end: RunEnd;
}

/** The lease was lost: said as J009's reason. */
class LeaseLost extends Error {
  constructor() {
    super('this worker lost its hold on the run: it stalled past its lease and another worker took over');
  }
}

/**
 * A run held by this worker on the PostgreSQL journal (or a part of one, a chunk of a distributed foreach:
 * its calls join the run's exchanges and its counters the run's totals). Appends are batched; each batch is
 * one transaction (one call of append_batch), and batches commit one after another in append order. A batch
 * first extends the lease, checking the token (locks.ts): a worker that lost hold of the run writes nothing
 * and stops with J009.
 * Its events are numbered from the run's own counter (runs.seq), in the same transaction, so a run's parts on
 * other workers share one order. `intend` resolves once its batch has committed (synchronous_commit on: on
 * disk), before the write is sent; so does flush(). A batch that fails (PostgreSQL went away) fails the run
 * with J009: what it held may or may not have committed, and nothing after it is written out of order.
 */
export class PostgresRunJournal implements RunJournal {
  private batch = new Batch();
  private counters: AttemptCounters | null = null;
  private readonly flushTimer = new FlushTimer(() => this.handOver(), FLUSH_MS);
  /** The last batch on its way: each batch waits for the one before it. */
  private tail: Promise<void> = Promise.resolve();
  private inflightBytes = 0;
  private caughtUp: { promise: Promise<void>; resolve: () => void } | null = null;
  private failure: Error | null = null;
  private done = false;

  constructor(
    private readonly owner: PostgresRunOwner,
    private readonly lease: Lease,
    readonly run_id: string,
    readonly attempt: number,
    readonly resuming: boolean,
    /** For a part: its name (its counters are kept in `parts`). */
    private readonly part?: string,
  ) {}

  async lookup(callKey: string): Promise<ExchangeRecord | undefined> {
    if (!this.resuming) return undefined;
    const { rows } = await this.owner.pool.query<ExchangeRow>(this.owner.sql.exchange, [this.run_id, callKey]);
    return rows[0] && toExchange(this.owner.paths, rows[0]);
  }

  async intend(call: CallEntry): Promise<void> {
    this.addExchange(call, null);
    await this.sync();
  }

  record(call: CallEntry, outcome: CallOutcome): void | Promise<void> {
    this.addExchange(call, outcome);
    return this.caughtUp?.promise;
  }

  step(e: StepEvent): void {
    if (this.done) return;
    const b = this.batch;
    const key = `${this.attempt}|${e.step_path}`;
    const input = stepInput(this.owner.paths, this.attempt, e, ++b.events);
    const before = b.steps.get(key);
    // As an upsert would: the first event's row, with the latest status, duration, error and place.
    b.steps.delete(key);
    b.steps.set(
      key,
      before
        ? { ...before, i: input.i, status: input.status, duration_ms: input.duration_ms, error_code: input.error_code }
        : input,
    );
    this.added(b, 200);
  }

  effect(name: string, value: unknown): void {
    if (this.done) return;
    const json = JSON.stringify(value ?? null);
    this.batch.effects.set(name, { name, attempt: this.attempt, value: json });
    this.added(this.batch, json.length);
  }

  async effects(): Promise<Record<string, unknown>> {
    await this.sync();
    const { rows } = await this.owner.pool.query<{ name: string; value: string }>(this.owner.sql.effectsOf, [
      this.run_id,
    ]);
    const out: Record<string, unknown> = {};
    for (const r of rows) out[r.name] = JSON.parse(r.value);
    return out;
  }

  progress(counters: AttemptCounters): void {
    this.counters = counters;
    if (!this.done) this.flushTimer.later();
  }

  noteIdempotencyHonoured(): void {
    if (this.done) return;
    this.batch.honoured = true;
    this.added(this.batch, 16);
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
    this.counters = null;
    this.handOver({ attempt: this.attempt, status, end });
    try {
      await this.sync();
      this.lease.drop();
    } catch (err) {
      await this.lease.release();
      throw err;
    } finally {
      this.stop();
    }
  }

  async release(): Promise<void> {
    if (this.done) return;
    try {
      await this.sync();
    } catch {
      // Letting go never fails: what could not be written is lost, as if the worker had died.
    } finally {
      this.stop();
      await this.lease.release();
    }
  }

  private addExchange(call: CallEntry, outcome: CallOutcome | null): void {
    if (this.done) return;
    const b = this.batch;
    const input = exchangeInput(this.owner.paths, this.attempt, call, outcome, ++b.events);
    // The latest state of the call, at its latest place in the run's order (as an upsert leaves it).
    b.exchanges.delete(call.call_key);
    b.exchanges.set(call.call_key, input);
    this.added(b, call.request.length + (outcome?.answer?.length ?? 0) + 300);
  }

  private added(b: Batch, bytes: number): void {
    b.ops++;
    b.bytes += bytes;
    if (b.ops >= FLUSH_OPS || b.bytes >= FLUSH_BYTES) this.handOver();
    else if (b.ops >= 256) this.flushTimer.atIdle();
    else this.flushTimer.later();
  }

  /** Hands everything pending to PostgreSQL and waits until it has committed; J009 when a batch failed. */
  private async sync(): Promise<void> {
    this.handOver();
    await this.tail;
    if (this.failure) {
      throw new RecipeError(
        'J009',
        {
          runId: this.run_id,
          reason: this.failure instanceof LeaseLost ? this.failure.message : `PostgreSQL: ${this.failure.message}`,
        },
        undefined,
        { cause: this.failure },
      );
    }
  }

  private stop(): void {
    this.done = true;
    this.flushTimer.clear();
    this.owner.letGo(this);
  }

  /** Queues the pending appends (and the latest counters, and the run's end) as the next transaction. */
  private handOver(ending?: Ending): void {
    this.flushTimer.clear();
    const batch = this.batch;
    const counters = this.counters;
    if (batch.empty && counters === null && !ending) return;
    this.batch = new Batch();
    this.counters = null;
    if (this.failure) return;
    this.inflightBytes += batch.bytes;
    this.tail = this.tail
      .then(() => (this.failure ? undefined : this.write(batch, counters, ending)))
      .catch((err: unknown) => {
        this.failure ??= err instanceof Error ? err : new Error(String(err));
      })
      .finally(() => {
        this.inflightBytes -= batch.bytes;
        if (this.caughtUp && this.inflightBytes < LOW_WATER) {
          const waiting = this.caughtUp;
          this.caughtUp = null;
          waiting.resolve();
        }
      });
    if (this.inflightBytes >= HIGH_WATER && !this.caughtUp) {
      let resolve = (): void => undefined;
      const promise = new Promise<void>((r) => (resolve = r));
      this.caughtUp = { promise, resolve };
    }
  }

  /**
   * One batch as one call of append_batch (schema.ts): a single statement, so a single transaction, which
   * checks and extends the lease first, then numbers the events from the run's counter, then writes the rows.
   */
  private async write(b: Batch, counters: AttemptCounters | null, ending: Ending | undefined): Promise<void> {
    const rows = <T>(m: Map<string, T>): string | null => (m.size > 0 ? JSON.stringify([...m.values()]) : null);
    const end = ending && {
      status: ending.status,
      ended_at: wholeMs(ending.end.ended_at),
      requests: ending.end.requests,
      writes: ending.end.writes,
      replayed_calls: ending.end.replayed_calls,
      outputs: JSON.stringify(ending.end.outputs),
      error: ending.end.error === null ? null : JSON.stringify(ending.end.error),
      report: ending.end.report,
      failed_call: ending.end.failed_call,
    };
    const { rows: result } = await this.owner.pool.query<{ ok: boolean }>(this.owner.sql.appendBatch, [
      this.run_id,
      this.lease.part,
      this.lease.token,
      this.lease.ms,
      this.attempt,
      b.events,
      rows(b.exchanges),
      rows(b.steps),
      rows(b.effects),
      b.honoured,
      counters &&
        JSON.stringify({
          requests: counters.requests,
          writes: counters.writes,
          replayed_calls: counters.replayed_calls,
        }),
      Date.now(),
      end ? JSON.stringify(end) : null,
    ]);
    if (result[0]?.ok !== true) throw new LeaseLost();
  }
}
