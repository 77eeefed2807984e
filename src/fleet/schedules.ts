import type { FleetClient } from './queue.js';
import { RUN_JOB_OPTIONS } from './queue.js';
import { JobName, type RunJobData } from './job.js';
import { RecipeError } from '../errors/index.js';

/** A schedule as `recipe schedule list` shows it. */
export interface ScheduleSummary {
  readonly name: string;
  readonly recipe: string;
  /** A cron pattern, or null for --every. */
  readonly cron: string | null;
  readonly every_ms: number | null;
  readonly tz: string | null;
  /** The next tick (ISO), when known. */
  readonly next: string | null;
  readonly inputs: Readonly<Record<string, unknown>>;
}

/** When a schedule fires: a cron pattern (5 fields, or 6 with seconds first) in a time zone, or a period. */
export type ScheduleWhen = { readonly cron: string; readonly tz?: string } | { readonly everyMs: number };

/**
 * Adds or replaces a schedule: a BullMQ job scheduler named after it. BullMQ makes exactly one job per
 * tick however many workers are up (the tick's job id is `repeat:<name>:<tick ms>`), and the worker
 * derives the run id from it (`<name>-<tick ms>`), so a tick is one run.
 */
export async function upsertSchedule(
  fleet: FleetClient,
  name: string,
  when: ScheduleWhen,
  data: Omit<RunJobData, 'run_id'>,
): Promise<void> {
  const repeat = 'cron' in when ? { pattern: when.cron, ...(when.tz ? { tz: when.tz } : {}) } : { every: when.everyMs };
  try {
    await fleet.queue.upsertJobScheduler(name, repeat, {
      name: JobName.run,
      data: { ...data, schedule: name },
      opts: {
        attempts: RUN_JOB_OPTIONS.attempts ?? 3,
        ...(RUN_JOB_OPTIONS.backoff !== undefined ? { backoff: RUN_JOB_OPTIONS.backoff } : {}),
        ...(RUN_JOB_OPTIONS.removeOnComplete !== undefined
          ? { removeOnComplete: RUN_JOB_OPTIONS.removeOnComplete }
          : {}),
        ...(RUN_JOB_OPTIONS.removeOnFail !== undefined ? { removeOnFail: RUN_JOB_OPTIONS.removeOnFail } : {}),
      },
    });
  } catch (err) {
    // BullMQ checks the pattern and the time zone.
    throw new RecipeError('F006', {
      flag: 'cron' in when ? `--cron ${when.cron}` : '--every',
      reason: (err as Error).message,
    });
  }
}

/** The queue's schedules, by name. */
export async function listSchedules(fleet: FleetClient): Promise<ScheduleSummary[]> {
  const all = await fleet.queue.getJobSchedulers(0, -1, true);
  return all
    .map((s) => {
      const data = (s.template?.data ?? {}) as Partial<RunJobData>;
      return {
        name: s.key,
        recipe: data.recipe ?? '?',
        cron: s.pattern ?? null,
        every_ms: s.every ?? null,
        tz: s.tz ?? null,
        next: s.next !== undefined ? new Date(s.next).toISOString() : null,
        inputs: data.inputs ?? {},
      };
    })
    .sort((a, b) => a.name.localeCompare(b.name));
}

/** Removes a schedule (F005 when there is none by that name); runs already made go on. */
export async function removeSchedule(fleet: FleetClient, name: string): Promise<void> {
  const removed = await fleet.queue.removeJobScheduler(name);
  if (!removed) throw new RecipeError('F005', { name, queue: fleet.queue.name });
}
