import type { Step } from '../../compile/plan.js';
import type { RecipeError } from '../../errors/index.js';
import type { StepStats } from '../../frame/report.js';
import type { Scope } from '../../frame/scope.js';
import { atStep, errorOutput, isInterrupt } from '../../frame/step-errors.js';
import type { TraceSpan } from '../../telemetry/index.js';
import type { RunState } from '../../calls/run-state.js';
import { recordStep } from './step-events.js';
import { spanOutcome, traceStep } from './step-trace.js';

/**
 * One visit of a step, from its start (after `when`) to its end: the clock, the step-start and step-end
 * events, the journal's records, the trace span, on_error. A step that runs synchronously and one that
 * waits (interpret.ts) share it, so both report the same way.
 */
export class StepVisit {
  readonly span: TraceSpan | undefined;
  private readonly started: number;
  /** Pops the step's deadline for runaway expressions, which cannot be stopped by a timer (they never yield). */
  private readonly endDeadline: (() => void) | undefined;
  private status = 'ok';
  private errorCode: string | null = null;
  private failure: RecipeError | undefined;

  constructor(
    readonly step: Step,
    readonly scope: Scope,
    readonly state: RunState,
    readonly stats: StepStats,
  ) {
    this.started = state.ctx.now();
    this.endDeadline =
      step.timeoutMs !== undefined ? scope.pushDeadline(this.started + step.timeoutMs, step.timeoutMs) : undefined;
    state.tracker.stepEvent('step-start', stats);
    recordStep(state, step, 'running', this.started, null);
    this.span = traceStep(state, step);
  }

  /** The kind's output: bound to the step's id; the step is ok (unless `assign` fails next). */
  succeeded(output: unknown): unknown {
    if (this.step.id !== undefined) this.scope.set(this.step.id, output);
    if (this.stats.status === 'not_run' || this.stats.status === 'skipped') this.stats.status = 'ok';
    return output;
  }

  /** A failure: thrown on (on_error fail, or a cancel), or its error output bound and answered (continue). */
  failed(err: unknown): unknown {
    const { step, state, stats } = this;
    const e = atStep(err, step.loc);
    this.errorCode = e.code;
    this.failure = e;
    if (isInterrupt(e) || state.signal.aborted || step.onError === 'fail') {
      stats.status = 'failed';
      this.status = 'failed';
      throw e;
    }
    stats.status = 'continued';
    this.status = 'continued';
    const redact = (s: string): string => state.ctx.redactor.redact(s);
    const output = errorOutput(e, redact);
    state.ctx.log('warn', redact(`${stats.id}: ${e.message} (on_error: continue)`));
    if (step.id !== undefined) this.scope.set(step.id, output);
    return output;
  }

  /** Ends the visit, whichever way it went: duration, step-end event, journal record, span. */
  end(): void {
    this.endDeadline?.();
    const duration = this.state.ctx.now() - this.started;
    this.stats.durationMs += duration;
    this.state.tracker.stepEvent('step-end', this.stats, this.stats.status);
    recordStep(this.state, this.step, this.status, this.started, duration, this.errorCode);
    this.span?.end(spanOutcome(this.status, this.failure));
  }
}
