import { createHash } from 'node:crypto';
import type { Redactor } from '../client/index.js';
import type { VisitReads } from '../expr/index.js';
import type { RunJournal, SettledBy } from '../journal/index.js';
import { newSeed, seededRandom } from './seeded-random.js';

/** How a write in doubt is settled on resume: decided for each one before the resume sends anything. */
export type SettleMethod = SettledBy;

/** What a resume replays and what it sends again. */
export interface ReplayPolicy {
  /** The call whose error failed the previous attempt: a redrive sends it again. */
  readonly failedCall: string | null;
  /** Send again every call that ended in an error (`--retry-failed-items`), not only the one that failed the run. */
  readonly retryFailedItems: boolean;
  /** Call key → how its write in doubt is settled. */
  readonly settle: ReadonlyMap<string, SettleMethod>;
}

/**
 * The per-run state of the record/replay point (service-call.ts): the journal (absent with --no-journal),
 * what a resume replays, the counters the report and history show, and the answers all steps share.
 */
export class CallRecorder {
  /** Calls answered from the journal instead of the network. */
  replayed = 0;
  /** Writes sent (dry-run writes are not sent). */
  writes = 0;
  /** Answers every step shares (connector lookups, action catalogs), by run-wide key. */
  readonly shared = new Map<string, Promise<unknown>>();
  private honouredNoted = false;
  private readonly failures = new WeakMap<object, string>();
  /** Values earlier attempts recorded (journal effects), which a resume replays. */
  private recorded: Readonly<Record<string, unknown>> = {};

  constructor(
    readonly runId: string,
    readonly journal: RunJournal | undefined,
    readonly redactor: Redactor,
    readonly replay: ReplayPolicy | undefined,
  ) {}

  /** The Idempotency-Key of a write: the same for the same call of the same run, whichever attempt sends it. */
  idempotencyKey(callKey: string): string {
    return `recipe-${createHash('sha256').update(`${this.runId}\n${callKey}`).digest('hex').slice(0, 40)}`;
  }

  /** Remembers which call an error came from (the run's failing call is sent again by a redrive). */
  tagFailure(err: unknown, callKey: string): void {
    if (err !== null && typeof err === 'object' && !this.failures.has(err)) this.failures.set(err, callKey);
  }

  /** The call key an error (or an error it wraps) came from. */
  failedCallOf(err: unknown): string | null {
    for (let e: unknown = err; e !== null && typeof e === 'object'; e = (e as { cause?: unknown }).cause) {
      const key = this.failures.get(e);
      if (key !== undefined) return key;
    }
    return null;
  }

  /** A resume: the values earlier attempts recorded, to answer with instead of reading them again. */
  replayEffects(effects: Readonly<Record<string, unknown>>): void {
    this.recorded = effects;
  }

  /**
   * A step visit's clock and chance, each read (and journaled) only when one of its expressions first asks;
   * `path` (the step path with loop indexes) is worked out then too.
   */
  visit(path: () => string, ctx: { now(): number; random(): number }): VisitReads {
    return new VisitReadings(this, path, ctx);
  }

  /**
   * The clock reading of a step visit (`$now()`, `$millis()`), journaled as `now:PATH`: a resume answers the
   * reading the earlier attempt recorded, so the requests it computes from it match the recorded ones.
   */
  visitClock(path: string, now: () => number): number {
    const key = `now:${path}`;
    const prior = this.recorded[key];
    if (typeof prior === 'number') return prior;
    const t = now();
    this.journal?.effect(key, t);
    return t;
  }

  /**
   * The source of chance of a step visit (`$random()`, `$shuffle()`): a generator seeded once per visit, the
   * seed journaled as `random:PATH`. A resume seeds it with the recorded seed, so the visit's expressions,
   * evaluated in the same order, draw the same values and compute the same requests.
   */
  visitRandom(path: string, random: () => number): () => number {
    const key = `random:${path}`;
    const prior = this.recorded[key];
    if (typeof prior === 'number') return seededRandom(prior);
    const seed = newSeed(random);
    this.journal?.effect(key, seed);
    return seededRandom(seed);
  }

  /** Tells the journal once that the service honours Idempotency-Key. */
  noteHonoured(): void {
    if (this.honouredNoted || !this.journal) return;
    this.honouredNoted = true;
    this.journal.noteIdempotencyHonoured();
  }
}

/**
 * One step visit's reads of time and chance (CallRecorder.visit): an object with methods, not closures, since
 * every step visit makes one and few of them are ever asked.
 */
class VisitReadings implements VisitReads {
  private reading: number | undefined;
  private draw: (() => number) | undefined;

  constructor(
    private readonly recorder: CallRecorder,
    private readonly path: () => string,
    private readonly ctx: { now(): number; random(): number },
  ) {}

  clock(): number {
    return (this.reading ??= this.recorder.visitClock(this.path(), this.ctx.now));
  }

  random(): number {
    return (this.draw ??= this.recorder.visitRandom(this.path(), this.ctx.random))();
  }
}
