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
import { fieldsOf, type RedisCommands } from './client.js';
import type { JournalKeys } from './schema.js';
import type { Lease } from './locks.js';
import type { PathCodec } from '../path-codec.js';
import { exchangeJson, inDoubt, stepJson, toExchange } from './records.js';
import { APPEND } from './statements.js';
import { FlushTimer } from '../flush-timer.js';

/** Appends go to Redis at once past these, else at the end of the event loop's turn or after FLUSH_MS. */
const FLUSH_OPS = 2000;
const FLUSH_BYTES = 1024 * 1024;
const FLUSH_MS = 100;
/** Producers wait (record() returns a Promise) while this much is on its way to Redis, until below LOW. */
const HIGH_WATER = 32 * 1024 * 1024;
const LOW_WATER = 8 * 1024 * 1024;

/** What a held run needs from its store. */
export interface RedisRunOwner {
  readonly redis: RedisCommands;
  readonly keys: JournalKeys;
  readonly paths: PathCodec;
  /** The run (or part) was let go of. */
  letGo(journal: RedisRunJournal): void;
}

/**
 * A run held by this worker on the Redis journal (or a part of one: a chunk of a distributed foreach run by
 * another worker, whose calls join the run's exchanges and whose counters join its totals). Appends are
 * batched into one script call each, in order on the connection; a write's intent goes at once with all
 * before it, and `intend` resolves once Redis has applied it, before the write is sent. Every batch checks
 * the lease: a worker that lost hold of the run (it stalled past the lease, another worker took over) stops
 * with J009 instead of writing beside the new holder.
 */
export class RedisRunJournal implements RunJournal {
  private pending: string[] = [];
  private pendingBytes = 0;
  private counters: AttemptCounters | null = null;
  private readonly flushTimer = new FlushTimer(() => this.handOver(), FLUSH_MS);
  private readonly inflight = new Set<Promise<unknown>>();
  private inflightBytes = 0;
  private caughtUp: { promise: Promise<void>; resolve: () => void } | null = null;
  private failure: Error | null = null;
  private done = false;

  constructor(
    private readonly owner: RedisRunOwner,
    private readonly lease: Lease,
    readonly run_id: string,
    readonly attempt: number,
    readonly resuming: boolean,
    /** For a part: the field its counters are kept under in the run's :parts hash. */
    private readonly part?: string,
  ) {}

  async lookup(callKey: string): Promise<ExchangeRecord | undefined> {
    if (!this.resuming) return undefined;
    const text = await this.owner.redis.call('HGET', `${this.owner.keys.run(this.run_id)}:ex`, callKey);
    return typeof text === 'string' ? toExchange(this.owner.paths, text) : undefined;
  }

  async intend(call: CallEntry): Promise<void> {
    this.push(call.request.length, 'x', call.call_key, '1', exchangeJson(this.owner.paths, this.attempt, call, null));
    await this.sync();
  }

  record(call: CallEntry, outcome: CallOutcome): void | Promise<void> {
    const json = exchangeJson(this.owner.paths, this.attempt, call, outcome);
    this.push(json.length, 'x', call.call_key, inDoubt(call, outcome) ? '1' : '0', json);
    return this.caughtUp?.promise;
  }

  step(e: StepEvent): void {
    const json = stepJson(this.owner.paths, this.attempt, e);
    this.push(json.length, 's', `${this.attempt}|${e.step_path}`, json);
  }

  effect(name: string, value: unknown): void {
    const json = JSON.stringify({ attempt: this.attempt, value: value ?? null });
    this.push(json.length, 'e', name, json);
  }

  async effects(): Promise<Record<string, unknown>> {
    await this.sync();
    const all = fieldsOf(await this.owner.redis.call('HGETALL', `${this.owner.keys.run(this.run_id)}:fx`));
    const out: Record<string, unknown> = {};
    for (const [name, text] of Object.entries(all)) out[name] = (JSON.parse(text) as { value: unknown }).value;
    return out;
  }

  progress(counters: AttemptCounters): void {
    this.counters = counters;
    if (!this.done) this.flushTimer.later();
  }

  noteIdempotencyHonoured(): void {
    this.push(16, 'h');
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
    const attemptEnd = {
      ended_at: end.ended_at,
      status,
      requests: end.requests,
      writes: end.writes,
      replayed_calls: end.replayed_calls,
    };
    this.counters = null;
    this.pending.push('ea', String(this.attempt), JSON.stringify(attemptEnd), String(end.ended_at));
    this.pending.push(
      'er',
      status,
      String(end.ended_at),
      JSON.stringify(end.outputs),
      end.error === null ? '' : JSON.stringify(end.error),
      end.report,
      end.failed_call ?? '',
    );
    try {
      await this.sync();
    } finally {
      this.stop();
      await this.lease.release();
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

  /** Hands everything pending to Redis and waits until all of it is applied; J009 when a write failed. */
  private async sync(): Promise<void> {
    this.handOver();
    while (this.inflight.size > 0) await Promise.allSettled([...this.inflight]);
    if (this.failure) {
      const lost = this.failure.message.includes('LEASE_LOST');
      throw new RecipeError(
        'J009',
        {
          runId: this.run_id,
          reason: lost
            ? 'this worker lost its hold on the run: it stalled past its lease and another worker took over'
            : this.failure.message,
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

  private push(bytes: number, ...op: string[]): void {
    if (this.done) return;
    this.pending.push(...op);
    this.pendingBytes += bytes;
    if (this.pending.length >= FLUSH_OPS || this.pendingBytes >= FLUSH_BYTES) this.handOver();
    else if (this.pending.length >= 256) this.flushTimer.atIdle();
    else this.flushTimer.later();
  }

  /** Sends the pending operations (and the latest counters) as one script call. */
  private handOver(): void {
    this.flushTimer.clear();
    const ops = this.pending;
    const counters = this.counters;
    if (ops.length === 0 && counters === null) return;
    const bytes = this.pendingBytes;
    this.pending = [];
    this.pendingBytes = 0;
    this.counters = null;
    const now = String(Date.now());
    if (counters) {
      const c = JSON.stringify({
        requests: counters.requests,
        writes: counters.writes,
        replayed_calls: counters.replayed_calls,
      });
      if (this.part !== undefined) ops.push('pc', this.part, c);
      else ops.push('c', String(this.attempt), c, now);
    } else if (this.part === undefined) ops.push('t', String(this.attempt), now);
    if (this.failure) return;
    const keys = [this.owner.keys.run(this.run_id), this.lease.key];
    this.inflightBytes += bytes;
    const sent: Promise<unknown> = APPEND.run(this.owner.redis, keys, [this.lease.token, this.lease.ms, ...ops]).then(
      () => undefined,
      (err: unknown) => {
        this.failure ??= err instanceof Error ? err : new Error(String(err));
      },
    );
    const tracked = sent.finally(() => {
      this.inflight.delete(tracked);
      this.inflightBytes -= bytes;
      if (this.caughtUp && this.inflightBytes < LOW_WATER) {
        const waiting = this.caughtUp;
        this.caughtUp = null;
        waiting.resolve();
      }
    });
    this.inflight.add(tracked);
    if (this.inflightBytes >= HIGH_WATER && !this.caughtUp) {
      let resolve = (): void => undefined;
      const promise = new Promise<void>((r) => (resolve = r));
      this.caughtUp = { promise, resolve };
    }
  }
}
