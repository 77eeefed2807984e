/**
 * The shapes of the console's runs API (the runs list, a run's page, its live updates): shared by the server
 * and the browser code like api-types.ts. Plain data only; the only import is the journal's types (a file of
 * types with no imports of its own), erased from the browser bundle.
 */
import type { ExchangeRecord, RunStatus, RunSummary } from '../journal/types.js';

/** The run statuses the journal knows. */
export type RunStatusName = RunStatus;

/** One row of the runs list: the journal's RunSummary. Times are ISO strings, durations ms. */
export type RunListItem = RunSummary & {
  /**
   * Who started it, in words (`trigger deal-won (delivery evt_1)`, `schedule nightly`, `recipe submit`, `mcp
   * client …`); null for a run started at a terminal. The plain data is the run page's `options.origin`.
   */
  readonly origin: string | null;
};

/** GET /api/runs?status=&recipe=&limit=&before=: a page of runs, newest first. */
export interface RunsPage {
  readonly runs: readonly RunListItem[];
  /** Pass as `before` for the next page; null on the last one. */
  readonly next: string | null;
  /** Where the runs come from (a journal file, or a fleet). */
  readonly source: string;
}

/** One bar of a waterfall row: the time a step (or iteration) took within one attempt, in ms on the run's axis. */
export interface TimeBar {
  readonly attempt: number;
  readonly start: number;
  /** null while it is still running. */
  readonly end: number | null;
  readonly status: string;
}

/** One iteration of a loop (foreach, streaming paginate), with its steps' bars. */
export interface IterationView {
  /** The iteration's place in the run, e.g. `rows[3]` (`a[1].b[2]` in nested loops). */
  readonly key: string;
  readonly index: number;
  readonly bar: TimeBar;
  readonly requests: number;
  readonly failures: number;
  /** The bars of the steps inside this iteration that left a trace (events or requests). */
  readonly parts: readonly {
    readonly label: string;
    readonly kind: string;
    readonly bar: TimeBar;
    readonly requests: number;
  }[];
}

/** A step of a run, aggregated over its visits (a step in a loop is one row for all its iterations). */
export interface StepView {
  /** The step path with loop indexes left out: `rows[].contacts`. */
  readonly key: string;
  /** The step's id, or kind@line. */
  readonly label: string;
  readonly kind: string;
  readonly file: string;
  readonly line: number;
  readonly depth: number;
  /** The worst outcome of its latest attempt: failed, interrupted, continued, running, ok or skipped. */
  readonly status: string;
  /** One bar per attempt it ran in. */
  readonly bars: readonly TimeBar[];
  /** How many times it ran (iterations × visits), as far as the journal shows. */
  readonly visits: number;
  /** Requests sent by it and by the steps inside it; retries and failed requests likewise. */
  readonly requests: number;
  readonly retries: number;
  readonly failures: number;
  readonly writes: number;
  readonly error_code: string | null;
  readonly children: readonly StepView[];
  /** A loop: its iterations (failed ones first, then by index, at most ITERATIONS_SHOWN) and how many there were. */
  readonly iterations?: { readonly total: number; readonly shown: readonly IterationView[] };
}

/** One attempt of a run: 1 is the run, 2… its resumes. */
export interface AttemptView {
  readonly attempt: number;
  readonly kind: string;
  readonly started_at: string;
  readonly ended_at: string | null;
  readonly status: string;
  readonly requests: number;
  readonly writes: number;
  readonly replayed_calls: number;
  readonly options: Readonly<Record<string, unknown>>;
  /** Where the attempt starts on the run's axis (ms): the waiting between attempts is left out. */
  readonly axis_start: number;
}

/** One request of a run: the journal's exchange without its answer, its error as a message, its request shortened. */
export type RequestView = Pick<
  ExchangeRecord,
  | 'seq'
  | 'call_key'
  | 'step_path'
  | 'line'
  | 'attempt'
  | 'kind'
  | 'method'
  | 'path'
  | 'entity'
  | 'action'
  | 'write'
  | 'state'
  | 'status'
  | 'latency_ms'
  | 'retries'
  | 'sent_at'
  | 'doubt'
  | 'settled_by'
> & {
  /** The error's code and message when it failed. */
  readonly error: { readonly code: string; readonly message: string } | null;
  /** The request as journaled (secrets masked), shortened past a few kilobytes. */
  readonly request: string;
};

/** GET /api/runs/:id/requests?after_seq=&limit=&writes_only=: a page of a run's requests in journal order. */
export interface RequestsPage {
  readonly requests: readonly RequestView[];
  /** Pass as after_seq for the next page; null on the last one. */
  readonly next: number | null;
}

/** The recipe file a run failed in, as it is on disk now. */
export interface RunSource {
  readonly file: string;
  readonly text: string;
  /** The line to highlight (the error's). */
  readonly line: number | null;
  /** The file's hash differs from the one the run recorded: the lines may have moved. */
  readonly changed: boolean;
}

/** GET /api/runs/:id (and each event of /api/runs/:id/live): everything the run page shows. */
export interface RunView {
  readonly run: RunListItem & {
    readonly inputs: Readonly<Record<string, unknown>>;
    readonly outputs: Readonly<Record<string, unknown>> | null;
    readonly error: {
      readonly code: string;
      readonly message: string;
      readonly file?: string;
      readonly line?: number;
      readonly column?: number;
    } | null;
    readonly options: Readonly<Record<string, unknown>>;
    readonly failed_call: string | null;
    /** Who holds a running run (pid, host, since). */
    readonly holder: Readonly<Record<string, unknown>> | null;
  };
  readonly attempts: readonly AttemptView[];
  /** The waterfall's length in ms (attempts end to end). */
  readonly axis_ms: number;
  readonly steps: readonly StepView[];
  readonly totals: {
    readonly requests: number;
    readonly failed: number;
    readonly writes: number;
    readonly dry_run_writes: number;
    readonly retries: number;
  };
  readonly writes_in_doubt: readonly RequestView[];
  readonly source: RunSource | null;
  /** The last journal seq this view includes. */
  readonly seq: number;
  /** Set when the run has more requests than the page aggregates (the waterfall then covers the first ones). */
  readonly truncated?: string;
}
