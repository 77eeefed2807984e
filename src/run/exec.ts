import type { CallObserver, CallOptions } from '../client/index.js';
import type { ConnectorRef, Plan, Step } from '../compile/plan.js';
import { RecipeError } from '../errors/index.js';
import type { CallRecorder } from './call-recorder.js';
import type { RunContext } from './context.js';
import type { DryRunLog } from './dry-run.js';
import { locationOf } from './errors.js';
import { evaluate } from './eval.js';
import type { StepStats, Tracker } from './report.js';
import type { Scope } from './scope.js';
import { resolveConnector } from './service-calls.js';

/** The state of one run that nested step lists share (a `call` gets its own plan and default connector). */
export interface Exec {
  readonly ctx: RunContext;
  readonly plan: Plan;
  readonly defaultConnector: ConnectorRef | undefined;
  readonly tracker: Tracker;
  readonly dryRun: DryRunLog;
  /** Stats of the enclosing steps, outermost first: their counters include nested work. */
  readonly chain: readonly StepStats[];
  readonly depth: number;
  readonly signal: AbortSignal;
  /** $run: what every expression can read about the run. */
  readonly run: Readonly<Record<string, unknown>>;
  /** Index of the current item in each enclosing loop (foreach, streaming paginate), outermost first. */
  readonly loop?: readonly number[];
  /** inspect's `actions` per connector id, asked at most once per run (paging key detection). */
  readonly actionCatalog: Map<string, Promise<Record<string, unknown>[] | null>>;
  /** The `http.allow` lists of this recipe and of the recipes that called it: a host must be in each. */
  readonly httpAllow: readonly (readonly string[])[];
  /** Records and replays the run's calls (service-call.ts). */
  readonly recorder: CallRecorder;
  /**
   * Where this step list runs, as a step path prefix: '' at the top, `notes[3]` in item 3 of foreach `notes`,
   * `rollup` inside the recipe that call step `rollup` runs. Call keys are built from it, so they depend on
   * the position of a call in the run, never on the order concurrent items happen to run in.
   */
  readonly frame: string;
}

/** A step's path in the run: the frame, then its id (kind@pointer without one). */
export function stepPathOf(exec: Exec, step: Step): string {
  const ref = step.id ?? `${step.kind}@${step.loc.pointer}`;
  return exec.frame === '' ? ref : `${exec.frame}.${ref}`;
}

/** What a step-kind function gets besides its step and scope. */
export class StepExec {
  private calls = 0;
  private stepPath: string | undefined;

  constructor(
    readonly exec: Exec,
    readonly step: Step,
    readonly stats: StepStats,
    readonly signal: AbortSignal,
  ) {}

  get ctx(): RunContext {
    return this.exec.ctx;
  }

  /** The Exec for steps nested in this one (one level deeper, counting into this step). */
  nested(signal: AbortSignal = this.signal, frame: string = this.path): Exec {
    return { ...this.exec, chain: [...this.exec.chain, this.stats], depth: this.exec.depth + 1, signal, frame };
  }

  /**
   * This visit's step path: the frame, then the step's id (kind@pointer without one): `notes[3].note`.
   * Ids keep keys stable when a recipe is edited (--allow-changed); pointers when only lines move.
   */
  get path(): string {
    this.stepPath ??= stepPathOf(this.exec, this.step);
    return this.stepPath;
  }

  /** The key of this visit's next call: the step path and the call's number within the visit. */
  nextCallKey(): string {
    return `${this.path}#${this.calls++}`;
  }

  /**
   * Options for client calls: cancellation, the step's retry policy, request/retry counting, the write's
   * Idempotency-Key, and an extra observer (the journal's: status and retries of the exchange).
   */
  callOptions(idempotencyKey?: string, extra?: CallObserver): CallOptions {
    const observer: CallObserver = {
      request: () => {
        const tracker = this.exec.tracker;
        tracker.requests++;
        const max = this.ctx.maxRequests;
        if (max !== undefined && tracker.requests > max) throw new RecipeError('X014', { max });
        for (const s of [...this.exec.chain, this.stats]) s.requests++;
        this.progress();
      },
      response: (info) => {
        extra?.response?.(info);
        this.ctx.log(
          'debug',
          `${this.stats.id}: ${info.method} ${info.path} ${info.what} → ${info.status} (${info.ms} ms)`,
        );
      },
      retry: (info) => {
        extra?.retry?.(info);
        this.exec.tracker.retries++;
        for (const s of [...this.exec.chain, this.stats]) s.retries++;
        this.ctx.log('debug', `${this.stats.id}: retry ${info.attempt} in ${info.delayMs} ms (${info.reason})`);
        this.progress();
      },
    };
    return {
      signal: this.signal,
      observer,
      ...(this.step.retry ? { retry: this.step.retry } : {}),
      ...(idempotencyKey !== undefined ? { idempotencyKey } : {}),
    };
  }

  /** Tells the caller this step (and its enclosing steps) moved. */
  progress(): void {
    for (const s of [...this.exec.chain, this.stats])
      this.exec.tracker.event({ type: 'step-progress', step: s.progress() });
  }

  /** The connector id for this step: its own `connector:`, else the recipe's, resolved through the client. */
  async connectorId(scope: Scope, what: { entity: string; action: string }): Promise<string> {
    const ref = this.step.connector ?? this.exec.defaultConnector;
    if (!ref) throw new RecipeError('X015', what, locationOf(this.step.loc));
    if (ref.kind === 'id') return String(await evaluate(ref.id, scope));
    const definition = String(await evaluate(ref.definition, scope));
    const workspace = ref.workspace ? String(await evaluate(ref.workspace, scope)) : undefined;
    return resolveConnector(this, workspace, definition);
  }
}
