import { RUN_JOB_OPTIONS, type FleetClient } from './queue.js';
import { JobName, type RunJobData } from './job.js';
import { RecipeError } from '../errors/index.js';
import { scheduleOffsetMs } from './job.js';

/** A schedule as `recipe schedule list` shows it. */
export interface ScheduleSummary {
  readonly name: string;
  readonly recipe: string;
  /** A cron pattern, or null for --every. */
  readonly cron: string | null;
  readonly every_ms: number | null;
  readonly tz: string | null;
  /** The next tick (ISO), when known; null while paused. */
  readonly next: string | null;
  readonly inputs: Readonly<Record<string, unknown>>;
  /** Paused (`recipe schedule pause`): no ticks until `recipe schedule resume`. */
  readonly paused: boolean;
  /** --jitter: each tick starts up to this late, by a stable per-schedule offset (offset_ms); null without. */
  readonly jitter_ms: number | null;
  readonly offset_ms: number | null;
}

/**
 * A paused schedule as kept in the fleet's registry (BullMQ has no paused job scheduler): enough to upsert it
 * again.
 */
interface PausedSchedule {
  readonly when: ScheduleWhen;
  readonly data: Omit<RunJobData, 'run_id'>;
  readonly paused_at: number;
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
    // Adding a schedule again replaces it, paused or not: the new one runs.
    await fleet.registry.unpause(fleet.queue.name, name);
  } catch (err) {
    // BullMQ checks the pattern and the time zone.
    throw new RecipeError('F006', {
      flag: 'cron' in when ? `--cron ${when.cron}` : '--every',
      reason: (err as Error).message,
    });
  }
}

/** The queue's schedules, by name, paused ones included. */
export async function listSchedules(fleet: FleetClient): Promise<ScheduleSummary[]> {
  const all = await fleet.queue.getJobSchedulers(0, -1, true);
  const active = all.map((s) => {
    const data = (s.template?.data ?? {}) as Partial<RunJobData>;
    return summary(s.key, data, { pattern: s.pattern, every: s.every, tz: s.tz }, s.next, false);
  });
  const kept = await fleet.registry.listPaused(fleet.queue.name);
  const paused = [...kept].map(([name, text]) => {
    const p = JSON.parse(text) as PausedSchedule;
    const when = 'cron' in p.when ? { pattern: p.when.cron, tz: p.when.tz } : { every: p.when.everyMs };
    return summary(name, p.data, when, undefined, true);
  });
  return [...active, ...paused].sort((a, b) => a.name.localeCompare(b.name));
}

function summary(
  name: string,
  data: Partial<RunJobData>,
  when: { pattern?: string | undefined; every?: number | undefined; tz?: string | undefined },
  next: number | undefined,
  paused: boolean,
): ScheduleSummary {
  const jitter = data.jitter_ms ?? null;
  return {
    name,
    recipe: data.recipe ?? '?',
    cron: when.pattern ?? null,
    every_ms: when.every ?? null,
    tz: when.tz ?? null,
    next: next !== undefined ? new Date(next).toISOString() : null,
    inputs: data.inputs ?? {},
    paused,
    jitter_ms: jitter,
    offset_ms: jitter !== null ? scheduleOffsetMs(name, jitter) : null,
  };
}

/** Removes a schedule, paused or not (F005 when there is none by that name); runs already made go on. */
export async function removeSchedule(fleet: FleetClient, name: string): Promise<void> {
  const removed = await fleet.queue.removeJobScheduler(name);
  const unpaused = await fleet.registry.unpause(fleet.queue.name, name);
  if (!removed && !unpaused) throw new RecipeError('F005', { name, queue: fleet.queue.name });
}

/**
 * Pauses a schedule: its job scheduler is removed (no more ticks, its next tick's job with it) and kept aside
 * to be put back by resumeSchedule. F005 unknown, F023 already paused. Runs already made go on.
 */
export async function pauseSchedule(fleet: FleetClient, name: string): Promise<void> {
  const queue = fleet.queue.name;
  const s = await fleet.queue.getJobScheduler(name);
  if (!s) {
    if ((await fleet.registry.listPaused(queue)).has(name))
      throw new RecipeError('F023', { name, queue: fleet.queue.name, state: 'already paused' });
    throw new RecipeError('F005', { name, queue: fleet.queue.name });
  }
  const when: ScheduleWhen =
    s.pattern !== undefined && s.pattern !== null
      ? { cron: s.pattern, ...(s.tz ? { tz: s.tz } : {}) }
      : { everyMs: s.every ?? 0 };
  const paused: PausedSchedule = { when, data: (s.template?.data ?? {}) as RunJobData, paused_at: Date.now() };
  await fleet.registry.pause(queue, name, JSON.stringify(paused));
  await fleet.queue.removeJobScheduler(name);
}

/** Resumes a paused schedule: its next tick is the next one from now (missed ticks are not made up). */
export async function resumeSchedule(fleet: FleetClient, name: string): Promise<void> {
  const queue = fleet.queue.name;
  const text = (await fleet.registry.listPaused(queue)).get(name);
  if (text === undefined) {
    if (await fleet.queue.getJobScheduler(name))
      throw new RecipeError('F023', { name, queue: fleet.queue.name, state: 'not paused' });
    throw new RecipeError('F005', { name, queue: fleet.queue.name });
  }
  const p = JSON.parse(text) as PausedSchedule;
  // upsertSchedule takes it out of the paused ones.
  await upsertSchedule(fleet, name, p.when, p.data);
}
