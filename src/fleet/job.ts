/**
 * The jobs of a fleet as they travel through Redis: plain JSON data, shared by `recipe submit`, `recipe
 * schedule`, the workers and distributed foreach (src/fleet/distribute/). Never a secret value: a job names
 * the secrets its recipe declares, and each worker reads their values from its own environment.
 */

import type { QueuedCallback } from '../triggers/fleet-runs.js';

/** The BullMQ queue workers take runs from unless --queue names another. */
export const DEFAULT_QUEUE = 'recipe-runs';

/** The key prefix of the fleet's run journal in Redis (one journal per queue: `<prefix>:<queue>`). */
export const JOURNAL_PREFIX = 'recipe:journal';

/** Job names: the worker dispatches on them. */
export const JobName = {
  /** A whole run of a recipe (submit, schedules). */
  run: 'run',
  /** A chunk of a distributed foreach, a BullMQ flow child of the run's job (src/fleet/distribute/). */
  chunk: 'chunk',
} as const;

/** A file of a recipe as a job pins it: its path relative to the recipes directory and its SHA-256. */
export interface PinnedFile {
  /** Relative to the recipes directory, '/'-separated. */
  readonly path: string;
  /** Hex SHA-256 of the file's bytes. */
  readonly sha256: string;
}

/** The data of a run job (name 'run'). */
export interface RunJobData {
  /** The recipe's path relative to the worker's recipes directory ('/'-separated, no '..'). */
  readonly recipe: string;
  /** Hex SHA-256 of the recipe file as submitted: a worker whose copy differs fails the job (F003). */
  readonly sha256: string;
  /** Every other file the recipe `call`s, pinned the same way. */
  readonly files: readonly PinnedFile[];
  /**
   * Hex SHA-256 of the recipe.lock governing the recipe (null: none): it pins every shared package the run may
   * call, and a worker whose lock differs fails the job (P036). Absent in jobs from before it existed.
   */
  readonly lock_sha256?: string | null;
  /** Input values as given (-i k=v strings or typed values); each worker resolves them against the recipe. */
  readonly inputs: Readonly<Record<string, unknown>>;
  /** The names of the secrets the recipe declares; values come from each worker's environment. */
  readonly secrets: readonly string[];
  /**
   * The run id; the job id is `run-<run id>` (jobIdOf), so a second submit of the same id is the same run.
   * Absent for a schedule's runs: the worker derives one from the job id (runIdOfJob), the same on every worker.
   */
  readonly run_id?: string;
  readonly dry_run?: boolean;
  /** A --connector override. */
  readonly connector?: string;
  /** The schedule that made this run, if any. */
  readonly schedule?: string;
  /**
   * A schedule's --jitter: its ticks start up to this many ms late, by a stable offset per schedule
   * (scheduleOffsetMs), so that N schedules on the same minute spread out.
   */
  readonly jitter_ms?: number;
  /** Set by the worker once it has delayed this tick by its offset (it is not delayed twice). */
  readonly jittered?: boolean;
  /** `recipe resume RUN --redis`: an operator asked the workers to resume or redrive this run. */
  readonly redrive?: RedriveRequest;
  /**
   * Who asked for the run (plain data, journaled as the run's `origin`): {kind: 'submit'}, {kind: 'trigger',
   * trigger, delivery_id}. Absent: a schedule's tick ({kind: 'schedule', schedule}) or an older submit.
   */
  readonly origin?: Readonly<Record<string, unknown>>;
  /** Where the worker POSTs the run's report when the run ends (src/fleet/job-callback.ts). */
  readonly callback?: JobCallback;
  /** Epoch ms. */
  readonly submitted_at: number;
}

/** A run's result callback as a job carries it (defined beside the triggers that also enqueue it). */
export type JobCallback = QueuedCallback;

/** A resume or redrive requested on the fleet: `recipe resume`'s flags, and when it was asked. */
export interface RedriveRequest {
  readonly allow_changed: boolean;
  readonly retry_failed_items: boolean;
  readonly assume_sent: readonly string[];
  readonly assume_not_sent: readonly string[];
  /** Epoch ms: an attempt started after this already served the request (a job delivered twice). */
  readonly requested_at: number;
}

/** What a run job returns (its BullMQ return value): enough for `submit --wait` and `runs --redis`. */
export interface RunJobResult {
  readonly run_id: string;
  /** The report's status. */
  readonly status: 'ok' | 'failed' | 'interrupted';
  /** The code of the error that failed the run, if it failed. */
  readonly error_code: string | null;
  /** The run report as `recipe run --json` prints it (JSON text). */
  readonly report: string;
  /** Which worker ran (the last attempt of) it. */
  readonly worker: string;
  /** How the run's result callback went, when the job has one. */
  readonly callback?: {
    readonly delivery_id: string;
    readonly delivered: boolean;
    readonly attempts: number;
    readonly last_status: number | null;
  };
}

/** The job id of a run: BullMQ refuses custom ids that read as integers or hold ':', which run ids may. */
export function jobIdOf(runId: string): string {
  return `run-${runId}`;
}

/**
 * The run id of a run job: its data's, else (a schedule's tick, job id `repeat:<schedule>:<tick ms>`)
 * `<schedule>-<tick ms>`, the same whichever worker takes the job.
 */
export function runIdOfJob(jobId: string | undefined, data: Pick<RunJobData, 'run_id'>): string | undefined {
  if (data.run_id !== undefined) return data.run_id;
  const tick = /^repeat:(.+):(\d+)$/.exec(jobId ?? '');
  if (tick) return `${tick[1]}-${tick[2]}`;
  if (jobId?.startsWith('run-')) return jobId.slice(4);
  return undefined;
}

/**
 * A schedule's stable offset within its --jitter: the same every tick (a report always arrives at the same
 * time), different between schedules (N schedules on the same minute spread over the jitter window).
 */
export function scheduleOffsetMs(schedule: string, jitterMs: number): number {
  if (jitterMs <= 0) return 0;
  let h = 2166136261;
  for (let i = 0; i < schedule.length; i++) h = Math.imul(h ^ schedule.charCodeAt(i), 16777619) >>> 0;
  return h % (Math.floor(jitterMs) + 1);
}

/** The tick time (epoch ms) of a schedule's job (`repeat:<schedule>:<tick ms>`), if it is one. */
export function tickOfJob(jobId: string | undefined): number | undefined {
  const tick = /^repeat:.+:(\d+)$/.exec(jobId ?? '');
  return tick ? Number(tick[1]) : undefined;
}
