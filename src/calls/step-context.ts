import { formatDuration, runRetryPolicy, type CallObserver, type CallOptions } from '../client/index.js';
import type { Step } from '../compile/plan.js';
import { RecipeError } from '../errors/index.js';
import type { TraceSpan } from '../telemetry/index.js';
import type { RunContext } from '../frame/run-context.js';
import type { StepStats, DryRunSite } from '../frame/report.js';
import { stepPathOf, type RunState } from './run-state.js';

/** What a step produced: its output (bound to $id and $result) and, where there is one, the envelope ($response). */
export interface StepOutcome {
  readonly output: unknown;
  readonly response?: unknown;
}

/** What a step-kind function gets besides its step and scope: the run's state and this visit of the step. */
export class StepContext {
  private calls = 0;
  private stepPath: string | undefined;

  constructor(
    readonly state: RunState,
    readonly step: Step,
    readonly stats: StepStats,
    readonly signal: AbortSignal,
    /** This visit's trace span, when the run is traced. */
    readonly span?: TraceSpan,
  ) {}

  get ctx(): RunContext {
    return this.state.ctx;
  }

  /** The RunState for steps nested in this one (one level deeper, counting into this step). */
  nested(signal: AbortSignal = this.signal, frame: string = this.path): RunState {
    const span = this.span;
    return {
      ...this.state,
      chain: [...this.state.chain, this.stats],
      depth: this.state.depth + 1,
      signal,
      frame,
      span,
    };
  }

  /** The trace span of iteration `index` of this loop step (past a cap, an event on this step's span). */
  iterationSpan(index: number): TraceSpan | undefined {
    return this.span?.iteration(index);
  }

  /**
   * This visit's step path: the frame, then the step's id (kind@pointer without one): `notes[3].note`.
   * Ids keep keys stable when a recipe is edited (--allow-changed); pointers when only lines move.
   */
  get path(): string {
    this.stepPath ??= stepPathOf(this.state, this.step);
    return this.stepPath;
  }

  /** The key of this visit's next call: the step path and the call's number within the visit. */
  nextCallKey(): string {
    return `${this.path}#${this.calls++}`;
  }

  /** Counts a call whose key nobody reads, so the keys of the visit's later calls stay what they would be. */
  skipCallKey(): void {
    this.calls++;
  }

  /**
   * Options for client calls: cancellation, the step's retry policy, request/retry counting, the write's
   * Idempotency-Key, and an extra observer (the journal's: status and retries of the exchange).
   */
  callOptions(idempotencyKey?: string, extra?: CallObserver): CallOptions {
    const observer: CallObserver = {
      request: () => {
        const tracker = this.state.tracker;
        tracker.requests++;
        const max = this.ctx.maxRequests;
        if (max !== undefined && tracker.requests > max) throw new RecipeError('X014', { max });
        for (const s of this.state.chain) s.requests++;
        this.stats.requests++;
        this.progress();
      },
      // Only when someone listens: the client then builds no per-request info object either.
      response:
        this.ctx.debug === false && extra?.response === undefined
          ? undefined
          : (info) => {
              extra?.response?.(info);
              if (this.ctx.debug !== false)
                this.ctx.log(
                  'debug',
                  `${this.stats.id}: ${info.method} ${info.path} ${info.what} → ${info.status} (${info.ms} ms)`,
                );
            },
      // Each exchange (a retry is another) is a client span under this visit's span, when the run is traced.
      exchange: this.span ? (info) => this.span?.exchange(info) : undefined,
      // The answer's JSON text as it came, for the journal (which would otherwise serialise it again).
      answer: extra?.answer,
      retry: (info) => {
        extra?.retry?.(info);
        this.state.tracker.retries++;
        for (const s of this.state.chain) s.retries++;
        this.stats.retries++;
        this.ctx.log('debug', `${this.stats.id}: retry ${info.attempt} in ${info.delayMs} ms (${info.reason})`);
        if (info.waitingMs !== undefined)
          this.ctx.waiting?.(
            `${this.stats.id}: waiting for the service (${info.reason}): retrying for up to ${formatDuration(info.retryForMs ?? 0)} (max_duration), ${formatDuration(Math.round(info.waitingMs / 1000) * 1000)} so far`,
          );
        this.progress();
      },
    };
    return {
      signal: this.signal,
      observer,
      retry: runRetryPolicy(this.step.retry, this.ctx.retryForMs),
      ...(idempotencyKey !== undefined ? { idempotencyKey } : {}),
    };
  }

  /** Tells the caller this step (and its enclosing steps) moved. */
  progress(): void {
    for (const s of this.state.chain) this.state.tracker.stepEvent('step-progress', s);
    this.state.tracker.stepEvent('step-progress', this.stats);
  }

  /** Where this visit sits, for a --dry-run write: its step, file, line and column, and each enclosing loop's index. */
  writeSite(): DryRunSite {
    const loop = this.state.loop ?? [];
    return {
      step: this.stats.id,
      line: this.stats.line,
      file: this.step.loc.file,
      column: this.step.loc.column,
      ...(loop.length > 0 ? { loop_index: [...loop] } : {}),
    };
  }
}
