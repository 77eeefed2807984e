import type { Step } from '../compile/plan.js';
import type { RunEvent, StepProgress } from './run-context.js';

/** One step in the run report. A step inside a loop appears once, with its counters summed over its runs. */
export interface StepReport {
  /** The step's id, or kind@line when it has none. */
  readonly id: string;
  readonly kind: string;
  readonly line: number;
  /** 0 for top-level steps, 1 inside a foreach/paginate/call, ... */
  readonly depth: number;
  readonly status: StepStatus;
  readonly duration_ms: number;
  readonly runs: number;
  readonly requests: number;
  readonly retries: number;
  /** True when `when` was false every time the step was reached. */
  readonly skipped: boolean;
  /** Present (true) when paginate stopped at max_pages or max_items with more to read. */
  readonly truncated?: true;
}

/** ok; failed (the run failed here); continued (failed, on_error: continue); skipped; not_run (never reached). */
export type StepStatus = 'ok' | 'failed' | 'continued' | 'skipped' | 'not_run';

/** A write that --dry-run did not send: the exact request it would have made. */
export type DryRunWrite = ExecuteDryRunWrite | HttpDryRunWrite;

/** Where a dry-run write sits in the recipe. */
export interface DryRunSite {
  readonly step: string;
  readonly line: number;
  /** The recipe file of the step (a called recipe's own file for its steps), and the step's column. */
  readonly file: string;
  readonly column: number;
  /** Index of the item in each enclosing loop (foreach, streaming paginate), outermost first. */
  readonly loop_index?: number[];
}

/** A connector action that writes (execute). */
export interface ExecuteDryRunWrite extends DryRunSite {
  readonly method: 'POST';
  readonly path: string;
  readonly body: { readonly entity: string; readonly action: string; readonly params: unknown };
  /** Checked against the connector catalog: false when the service would refuse it (absent: not checked). */
  readonly valid?: boolean;
  /** Why the service would refuse it. */
  readonly problems?: DryRunProblem[];
}

/** One reason a dry-run write would be refused: a code of the A (connector calls) catalog, and the param. */
export interface DryRunProblem {
  readonly code: string;
  readonly message: string;
  /** The param it concerns, e.g. params.properties.hs_task_priority. */
  readonly field: string;
}

/** An http step with a method other than GET or HEAD (secrets in it are masked like everywhere). */
export interface HttpDryRunWrite extends DryRunSite {
  readonly kind: 'http';
  readonly method: string;
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
  /** The JSON body as a value, or the text body. */
  readonly body?: unknown;
}

/** The machine-readable result of a run (`recipe run --json` prints exactly this). */
export interface RunReport {
  readonly status: 'ok' | 'failed' | 'interrupted';
  /** The run's id ($run.id): the journal's key for `recipe resume` and `recipe runs show`. */
  readonly run_id: string;
  /** Only on a resume: this attempt's number (the original run is 1). */
  readonly attempt?: number;
  /** Only on a resume: the attempt it resumed and how that one had ended. */
  readonly resumed_from?: { readonly attempt: number; readonly status: string };
  /** Only on a resume: calls answered from the journal instead of being sent. */
  readonly replayed_calls?: number;
  readonly recipe: string;
  readonly file: string;
  readonly dry_run: boolean;
  readonly outputs: Record<string, unknown>;
  readonly steps: StepReport[];
  readonly requests: number;
  readonly retries: number;
  readonly duration_ms: number;
  readonly dry_run_writes?: DryRunWrite[];
  readonly error?: ReportedError;
}

/** A failure as the report shows it. */
export interface ReportedError {
  readonly code: string;
  readonly message: string;
  readonly file?: string;
  readonly line?: number;
  readonly column?: number;
  readonly status?: number;
}

/** Mutable counters of one step. */
export class StepStats {
  runs = 0;
  skippedRuns = 0;
  durationMs = 0;
  requests = 0;
  retries = 0;
  records = 0;
  done = 0;
  total: number | null = null;
  truncated = false;
  status: StepStatus = 'not_run';

  constructor(
    readonly key: string,
    readonly id: string,
    readonly kind: string,
    readonly line: number,
    readonly depth: number,
  ) {}

  progress(): StepProgress {
    return {
      key: this.key,
      id: this.id,
      kind: this.kind,
      depth: this.depth,
      records: this.records,
      done: this.done,
      total: this.total,
      requests: this.requests,
      retries: this.retries,
    };
  }

  toReport(): StepReport {
    return {
      id: this.id,
      kind: this.kind,
      line: this.line,
      depth: this.depth,
      status: this.status,
      duration_ms: Math.round(this.durationMs),
      runs: this.runs,
      requests: this.requests,
      retries: this.retries,
      skipped: this.runs > 0 && this.skippedRuns === this.runs,
      ...(this.truncated ? { truncated: true as const } : {}),
    };
  }
}

/** Keeps one StepStats per plan step, in the order steps were first reached, plus the run totals. */
export class Tracker {
  private readonly byStep = new Map<Step, StepStats>();
  requests = 0;
  retries = 0;

  /**
   * @param maxDepth the deepest step depth whose events `emit` wants: the CLI draws top-level steps only, and a
   * streamed record's steps would otherwise build two events per record that nobody reads.
   */
  constructor(
    private readonly emit: (e: RunEvent) => void,
    private readonly maxDepth: number = Number.POSITIVE_INFINITY,
  ) {}

  /** Registers every step of a list (and nested lists) so never-reached steps still appear as not_run. */
  register(steps: readonly Step[], depth: number, file: string): void {
    for (const step of steps) {
      this.statsFor(step, depth, file);
      if (step.kind === 'foreach') this.register(step.steps, depth + 1, file);
      if (step.kind === 'paginate' && step.steps) this.register(step.steps, depth + 1, file);
      if (step.kind === 'call') this.register(step.plan.steps, depth + 1, step.plan.file);
    }
  }

  statsFor(step: Step, depth: number, file: string): StepStats {
    let s = this.byStep.get(step);
    if (!s) {
      const key = `${file}#${step.loc.pointer}`;
      s = new StepStats(key, step.id ?? `${step.kind}@${step.loc.line}`, step.kind, step.loc.line, depth);
      this.byStep.set(step, s);
    }
    return s;
  }

  /** A step started, moved or ended: told when its depth is wanted (the event is built only then). */
  stepEvent(type: 'step-start' | 'step-progress', stats: StepStats): void;
  stepEvent(type: 'step-end', stats: StepStats, status: string): void;
  stepEvent(type: RunEvent['type'], stats: StepStats, status?: string): void {
    if (stats.depth > this.maxDepth) return;
    this.emit(
      type === 'step-end'
        ? { type, step: stats.progress(), status: status ?? stats.status }
        : { type, step: stats.progress() },
    );
  }

  reports(): StepReport[] {
    return [...this.byStep.values()].map((s) => s.toReport());
  }
}
