/**
 * The run journal's interface: what a backend stores and how the runner, the CLI and the console use it.
 * Backend-neutral on purpose: every method that may touch storage returns a Promise, appends are batched
 * (the caller does not wait for them), values cross the interface as plain data (JSON texts for what the
 * journal does not interpret), and "who holds a run" (a lock, a lease, a heartbeat) stays behind it.
 * SQLite (src/journal/sqlite/) is the first backend; Redis (src/journal/redis/) and PostgreSQL
 * (src/journal/postgres/) implement the same two interfaces for a fleet of workers, where a worker that dies
 * mid-run leaves a run another worker resumes.
 *
 * Every backend is one folder with the same files for the same roles, so a new one copies this list:
 *   store.ts        the JournalStore: begin, resume, holdPart, the reads, prune, close
 *   run-journal.ts  one held run (or part) as a RunJournal: batched appends, `intend` durable before it returns
 *   records.ts      the stored form (rows, JSON) ⇄ this file's types (ExchangeRecord, RunRecord, ...)
 *   schema.ts       where things are stored: tables and migrations (SQLite, PostgreSQL), the key layout (Redis)
 *   locks.ts        who holds a run or a part: an OS file lock (SQLite), a lease with an expiry (Redis, and
 *                   PostgreSQL: a row on the database's clock)
 *   statements.ts   the backend's writes as statements: named SQL (SQLite, PostgreSQL), Lua scripts (Redis)
 * and, where only some backends need them:
 *   client.ts       the connection: the commands sent through one the caller brings (Redis: journal/ uses no
 *                   driver); a pool of its own (PostgreSQL: the one place `pg` is used)
 *   write-sink.ts   where batches are written off the run's thread (SQLite: a writer thread); Redis sends
 *                   each batch from run-journal.ts, as one script call
 * Shared by every backend: in-doubt.ts (the rule of a write in doubt), flush-timer.ts (when batches go).
 * One contract suite checks them all (test/journal/store-contract.ts); each backend's test file runs it
 * (test/journal/<backend>-store.test.ts) and adds what only that backend has.
 *
 * The journal knows call keys and answers, not step semantics: run/ computes keys, decides what to replay
 * and redacts every value before handing it over. A backend stores what it is given, never a secret.
 *
 * Types only, and no imports: the console's browser code reads RunSummary and RunStatus from here.
 */

/** A run as history shows it. `interrupted`: started, never recorded its end, and nobody holds it now. */
export type RunStatus = 'running' | 'succeeded' | 'failed' | 'interrupted' | 'cancelled';

/** The content hash of one recipe file a run used (the recipe, and every file it `call`s). */
export interface RecipeFileHash {
  readonly path: string;
  /** Hex SHA-256 of the file's bytes. */
  readonly sha256: string;
}

/** What starting a run records (attempt 1). Every value is already redacted. */
export interface RunStart {
  readonly run_id: string;
  readonly recipe: string;
  readonly file: string;
  readonly files: readonly RecipeFileHash[];
  /** The resolved input values, secret values masked. */
  readonly inputs: Readonly<Record<string, unknown>>;
  /** Epoch ms; also the run's recorded clock ($run.started_at), replayed by every resume. */
  readonly started_at: number;
  readonly dry_run: boolean;
  /** What a resume must apply again (e.g. a --connector override); plain data. */
  readonly options: Readonly<Record<string, unknown>>;
}

/** What a resume records: a new attempt of the same run. */
export interface AttemptStart {
  /** resume: the run was interrupted or cancelled; redrive: it had failed. */
  readonly kind: 'resume' | 'redrive';
  readonly started_at: number;
  /** The resume's flags (allow_changed, retry_failed_items, assume_sent, assume_not_sent). */
  readonly options: Readonly<Record<string, unknown>>;
}

/** One row of `recipe runs`: newest first. Times are ISO strings, durations ms. */
export interface RunSummary {
  readonly run_id: string;
  readonly recipe: string;
  readonly file: string;
  readonly status: RunStatus;
  readonly started_at: string;
  readonly ended_at: string | null;
  /** Time spent running, summed over attempts (a resume a day later does not count the day). */
  readonly duration_ms: number;
  /** Requests sent (replayed calls are not sent), over all attempts. */
  readonly requests: number;
  /** Writes sent (and writes settled by a resume), over all attempts. */
  readonly writes: number;
  readonly attempts: number;
  readonly dry_run: boolean;
}

/** Everything the journal holds about a run besides its events and exchanges. */
export interface RunRecord extends RunSummary {
  readonly files: readonly RecipeFileHash[];
  readonly inputs: Record<string, unknown>;
  readonly options: Record<string, unknown>;
  readonly outputs: Record<string, unknown> | null;
  readonly error: Record<string, unknown> | null;
  /** The last attempt's report as `recipe run --json` printed it (JSON text), once the run has ended. */
  readonly report: string | null;
  /** The call key whose error failed the run (a redrive sends it again). */
  readonly failed_call: string | null;
  /** 'honoured' once the service acknowledged an Idempotency-Key for this run. */
  readonly idempotency: 'honoured' | null;
  /** Who holds the run now ({pid, host, since} for SQLite), or null. */
  readonly holder: Record<string, unknown> | null;
}

/** One attempt of a run: 1 is the original run, 2… its resumes. */
export interface AttemptRecord {
  readonly attempt: number;
  readonly kind: 'run' | 'resume' | 'redrive';
  readonly started_at: string;
  readonly ended_at: string | null;
  /** The attempt's own status; `interrupted` when it never recorded an end. */
  readonly status: RunStatus;
  readonly requests: number;
  readonly writes: number;
  /** Calls answered from the journal instead of the network. */
  readonly replayed_calls: number;
  readonly options: Record<string, unknown>;
}

/** Where a call or a step sits in the recipe. */
export interface RecordedSite {
  /** The step path: step ids (else kind@pointer) joined by '.', loop indexes in brackets: `notes[3].note`. */
  readonly step_path: string;
  readonly file: string;
  readonly line: number;
  readonly column: number;
  readonly pointer: string;
}

/**
 * The state of one call in the journal:
 * intent: a write about to be sent (recorded durably before sending) with no answer yet;
 * answered: a 2xx answer; failed: an error (an HTTP error, no connection, a timeout); dry_run: not sent.
 */
export type ExchangeState = 'intent' | 'answered' | 'failed' | 'dry_run';

/** How a write in doubt was settled by a resume. */
export type SettledBy = 'idempotency_key' | 'lookup' | 'assume_sent' | 'assume_not_sent';

/** A call as the runner hands it to the journal (before or after sending). Every value is redacted. */
export interface CallEntry extends RecordedSite {
  /** The call's deterministic position: the step path plus `#n`, the n-th call of that step visit. */
  readonly call_key: string;
  /** execute, download, inspect, resolve (connector lookup), http (the http step). */
  readonly kind: string;
  readonly method: string;
  /** The request path (or URL for http). */
  readonly path: string;
  readonly entity: string | null;
  readonly action: string | null;
  readonly write: boolean;
  readonly idempotency_key: string | null;
  /** The request as JSON text (masked): a replay compares it with the request the recipe makes now. */
  readonly request: string;
}

/** The outcome of a call. */
export interface CallOutcome {
  readonly call_key: string;
  readonly state: 'answered' | 'failed' | 'dry_run';
  /** HTTP status when there was an answer. */
  readonly status: number | null;
  /** The answer as JSON text (redacted), or null when not kept (downloads: bytes are fetched again). */
  readonly answer: string | null;
  /** {code, params} of the error (redacted) when failed. */
  readonly error: string | null;
  /** True for a failed write that may nevertheless have been applied (no answer, a 5xx, a timeout). */
  readonly doubt: boolean;
  /** True when masking secrets changed the answer: it cannot be replayed as recorded. */
  readonly redacted: boolean;
  readonly retries: number;
  readonly sent_at: number | null;
  readonly latency_ms: number | null;
  readonly settled_by: SettledBy | null;
}

/** A call as the journal holds it: its entry, its latest outcome and the attempt that produced it. */
export interface ExchangeRecord extends CallEntry {
  /** Order of the latest change within the run (shared with step events): follow a run live with after_seq. */
  readonly seq: number;
  readonly attempt: number;
  readonly state: ExchangeState;
  readonly status: number | null;
  readonly answer: string | null;
  readonly error: string | null;
  readonly doubt: boolean;
  readonly redacted: boolean;
  readonly retries: number;
  readonly sent_at: string | null;
  readonly latency_ms: number | null;
  readonly settled_by: SettledBy | null;
}

/** One visit of a step (its end; container and top-level steps also record their start as `running`). */
export interface StepEvent extends RecordedSite {
  readonly step_id: string;
  readonly kind: string;
  readonly depth: number;
  readonly status: string;
  /** Epoch ms. */
  readonly started_at: number;
  readonly duration_ms: number | null;
  readonly error_code: string | null;
}

/** A step event as stored. */
export interface StepEventRecord extends Omit<StepEvent, 'started_at'> {
  readonly seq: number;
  readonly attempt: number;
  readonly started_at: string;
}

/** What an attempt has done so far. */
export interface AttemptCounters {
  readonly requests: number;
  readonly writes: number;
  readonly replayed_calls: number;
}

/** How an attempt ended. */
export interface RunEnd extends AttemptCounters {
  /** The report's status: ok → succeeded, failed → failed, interrupted (Ctrl-C) → cancelled. */
  readonly status: 'ok' | 'failed' | 'interrupted';
  readonly ended_at: number;
  readonly duration_ms: number;
  readonly outputs: Record<string, unknown>;
  readonly error: Record<string, unknown> | null;
  /** The report as printed (JSON text). */
  readonly report: string;
  readonly failed_call: string | null;
}

/** A run's place in the listing's order (newest first: started_at descending, then run_id descending). */
export interface RunCursor {
  readonly started_at: string;
  readonly run_id: string;
}

/** Filters of `recipe runs`. */
export interface RunFilter {
  readonly status?: RunStatus;
  /** The recipe's name (or its file path). */
  readonly recipe?: string;
  /** Default 20. */
  readonly limit?: number;
  /**
   * Paging (a console's next page): only runs that come after this one in the listing's order, that is
   * started earlier, or at the same millisecond with a smaller run_id. Pass the last row of the previous
   * page (a RunSummary is a RunCursor). Keyset paging: a run added or pruned meanwhile shifts nothing.
   */
  readonly before?: RunCursor;
}

/** Paging through a run's events (following it live: pass the last seq seen). */
export interface SeqRange {
  readonly after_seq?: number;
  readonly limit?: number;
}

/**
 * One run held by this process: appends, the lookups a replay makes, and the end. While it is held no
 * other process can resume it; a process that dies lets go of it (SQLite: an OS lock on a file), so
 * history shows the run `interrupted`.
 */
export interface RunJournal {
  readonly run_id: string;
  readonly attempt: number;
  /** True when earlier attempts recorded calls: only then are lookups worth making. */
  readonly resuming: boolean;
  /** The latest record of a call key (from any attempt), or undefined. */
  lookup(callKey: string): Promise<ExchangeRecord | undefined>;
  /** Records a write about to be sent; resolves once the record (and every append before it) is durable. */
  intend(call: CallEntry): Promise<void>;
  /**
   * Records a call's outcome (after intend for writes, alone for reads). Batched: it returns at once, or a
   * Promise when the backend is too far behind (its writer falls behind a slow disk), which the caller awaits
   * before its next call, so that memory stays bounded however fast answers come.
   */
  record(call: CallEntry, outcome: CallOutcome): void | Promise<void>;
  /** Records a step visit. Batched. */
  step(event: StepEvent): void;
  /** Records a non-deterministic value the run used (clock, random, environment read). Batched. */
  effect(name: string, value: unknown): void;
  /** Values recorded by effect() in any attempt. */
  effects(): Promise<Record<string, unknown>>;
  /** The attempt's counters so far (the latest call wins; written with the next flush). */
  progress(counters: AttemptCounters): void;
  /** Remembers that the service honours Idempotency-Key (asked before settling writes in doubt). */
  noteIdempotencyHonoured(): void;
  /** Makes every batched append durable. */
  flush(): Promise<void>;
  /** Records the attempt's end (and the run's), then lets go of the run. */
  finish(end: RunEnd): Promise<void>;
  /** Lets go of the run without an end (it shows as interrupted until resumed). */
  release(): Promise<void>;
  /** A cancel request for this attempt (JournalStore.requestCancel), or null: read from storage at each call. */
  cancelRequested(): Promise<CancelRequest | null>;
}

/**
 * A request to stop a run (`recipe cancel`), stored in the journal so that whoever holds the run sees it: the
 * process that runs it polls (RunJournal.cancelRequested), on this machine or on a fleet worker alike.
 */
export interface CancelRequest {
  readonly reason: string | null;
  /** Epoch ms. */
  readonly requested_at: number;
  /** The attempt it stops: a later resume (a new attempt) is not cancelled by it. */
  readonly attempt: number;
}

/** The read side: history, a run's record, its events; what the console uses (read only). */
export interface JournalReader {
  getRun(runId: string): Promise<RunRecord | undefined>;
  /** Newest first. */
  listRuns(filter?: RunFilter): Promise<RunSummary[]>;
  listAttempts(runId: string): Promise<AttemptRecord[]>;
  /** Step events in append order. */
  listSteps(runId: string, range?: SeqRange): Promise<StepEventRecord[]>;
  /** Exchanges in order of their latest change (`seq`); one record per call key. */
  listExchanges(runId: string, range?: SeqRange & { readonly writes_only?: boolean }): Promise<ExchangeRecord[]>;
  getEffects(runId: string): Promise<Record<string, unknown>>;
  /**
   * Writes that may have been applied but have no usable answer: an intent never answered, a failure that
   * may hide an applied write (no answer, a 5xx, a timeout), an answer that masking a secret changed.
   */
  writesInDoubt(runId: string): Promise<ExchangeRecord[]>;
  close(): Promise<void>;
}

/** A lease held now on a run or a part of one (JournalStore.leases). */
export interface HeldLease {
  readonly run_id: string;
  /** A part of the run (a chunk: chunk-<step hash>-<n>), or null for the run itself. */
  readonly part: string | null;
  /** The worker holding the run (host:pid), when known. */
  readonly holder: string | null;
  /** Time left before the lease runs out unless renewed. */
  readonly expires_in_ms: number;
}

/** The whole journal: start or resume runs, read them, prune them. */
export interface JournalStore extends JournalReader {
  /** Starts a run (attempt 1), held by this process. J006 when the id exists. */
  begin(start: RunStart): Promise<RunJournal>;
  /** Takes hold of an existing run for a new attempt. J001 unknown id, J003 held by a live process. */
  resume(runId: string, attempt: AttemptStart): Promise<RunJournal>;
  /**
   * Holds a part of a run beside the run's own holder (a chunk of a distributed foreach, src/fleet/distribute/):
   * its calls join the run's exchanges and its counters the run's totals, but its finish ends the part, not the
   * run. It is always `resuming`: a part that runs again replays what its earlier holder recorded.
   * J001 unknown id, J003 the part is held by a live holder; J011 where the backend keeps parts with their run's
   * holder (SQLite: a run's order of events lives in the process that holds it) and this one does not hold it.
   */
  holdPart(runId: string, part: string): Promise<RunJournal>;
  /**
   * Asks the process running `runId` to stop it (its current attempt): stored, then seen by that process within
   * its poll. J001 unknown id; J020 when the run is not running (ended, or nobody holds it).
   */
  requestCancel(runId: string, reason: string | null, at: number): Promise<CancelRequest>;
  /**
   * Forgets the answers of a run's reads (writes keep theirs): what `--drop-read-answers` does once a run
   * succeeded and can no longer be resumed. `runs show` then shows those exchanges without their answer.
   * Returns how many answers were dropped; J001 for an unknown run.
   */
  dropReadAnswers(runId: string): Promise<number>;
  /**
   * Deletes runs that ended (or were interrupted) before `before` (epoch ms); never a held run. With `limit`, at
   * most that many (the oldest first): retention applied at each run's start stays bounded work.
   */
  prune(before: number, limit?: number): Promise<number>;
  /**
   * Marks parts whose counters the run's own attempt now carries (a distributed foreach gathered its chunks'
   * results, and with them their requests and writes): a run's totals count them once, through the attempt.
   * Optional: only backends that keep parts (holdPart) have it.
   */
  foldParts?(runId: string, parts: readonly string[]): Promise<void>;
  /**
   * The leases held now (runs, and parts of runs, that a live process holds) with the time left on each: what
   * `recipe fleet status` shows. Optional: only the backends a fleet shares (Redis, PostgreSQL) have leases.
   */
  leases?(): Promise<HeldLease[]>;
  /**
   * How long a run (or part) may still show as held after its holder died: a lease's period; 0 where the hold
   * ends with the process (SQLite's OS lock). Whoever takes over a dead holder's run waits this long at most.
   */
  readonly leaseMs: number;
}
