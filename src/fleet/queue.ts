import { resolve } from 'node:path';
import type { Job, JobsOptions } from 'bullmq';
import type { Plan } from '../compile/plan.js';
import { RecipeError } from '../errors/index.js';
import type { JournalStore, RunRecord, RunStatus, RunSummary } from '../journal/index.js';
import { declaredSecrets, recipeFiles } from '../run/index.js';
import { jobIdOf, JobName, runIdOfJob, type RedriveRequest, type RunJobData } from './job.js';
import { hashFile, pinnedPath } from './recipe-pin.js';
import { lockHashOf } from '../packages/index.js';
import { checkedStore, type FleetStore } from './fleet-store.js';
import { connectStore } from './open-store.js';
import type { FleetRegistry } from './registry.js';
import type { FleetQueue } from './store-connections.js';

/**
 * What the queue's producers share (`recipe submit`, `recipe schedule`, `recipe runs --redis/--postgres`): the
 * queue, the fleet's journal, and the options every run job gets.
 */
export interface FleetClient {
  readonly store: FleetStore;
  readonly queue: FleetQueue;
  readonly journal: JournalStore;
  /** The worker registry and paused schedules, in the same store (registry.ts). */
  readonly registry: FleetRegistry;
  close(): Promise<void>;
}

/** How a run job is retried: a failure before the run starts (Redis, the service unreachable) is retried. */
export const RUN_JOB_OPTIONS: JobsOptions = {
  attempts: 3,
  backoff: { type: 'exponential', delay: 2000 },
  // Finished jobs stay for `recipe runs --redis` and `submit --wait`; the journal keeps the full history.
  removeOnComplete: { count: 10_000 },
  removeOnFail: { count: 10_000 },
};

/**
 * Opens the queue and the journal in the fleet's store (a redis:// URL string is a Redis store, as before
 * --postgres): F001 when Redis cannot be reached, F010 when PostgreSQL cannot. With `recipesDir`, the journal's
 * recipe paths read as files under it (to run or resume a recipe here).
 */
export async function openFleet(
  target: FleetStore | string,
  queueName: string,
  recipesDir?: string,
): Promise<FleetClient> {
  const store = typeof target === 'string' ? checkedStore('redis', target) : target;
  const connections = await connectStore(store);
  try {
    const journal = await connections.openJournal({
      queue: queueName,
      ...(recipesDir !== undefined ? { recipesDir: resolve(recipesDir) } : {}),
    });
    const queue = connections.newQueue(queueName);
    return {
      store,
      queue,
      journal,
      registry: connections.registry,
      close: async () => {
        await queue.close();
        await journal.close();
        await connections.close();
      },
    };
  } catch (err) {
    await connections.close();
    throw err;
  }
}

/** A run job's data for a plan: the recipe pinned under the recipes directory, its secrets' names. */
export async function runJobData(
  plan: Plan,
  recipesDir: string,
  o: {
    inputs: Readonly<Record<string, unknown>>;
    runId?: string;
    dryRun?: boolean;
    connector?: string;
    schedule?: string;
  },
): Promise<RunJobData> {
  const [first, ...called] = recipeFiles(plan, { packages: false });
  const recipe = pinnedPath(recipesDir, first as string);
  const files = await Promise.all(
    called.map(async (f) => ({ path: pinnedPath(recipesDir, f), sha256: await hashFile(f) })),
  );
  return {
    recipe,
    sha256: await hashFile(first as string),
    files,
    inputs: o.inputs,
    secrets: declaredSecrets(plan),
    lock_sha256: await lockHashOf(first as string),
    ...(o.runId !== undefined ? { run_id: o.runId } : {}),
    ...(o.dryRun ? { dry_run: true } : {}),
    ...(o.connector !== undefined ? { connector: o.connector } : {}),
    ...(o.schedule !== undefined ? { schedule: o.schedule } : {}),
    submitted_at: Date.now(),
  };
}

/**
 * Enqueues a run (job id `run-<run id>`): `added` false when that run was already submitted (the queue or
 * the journal has it), in which case nothing is enqueued.
 */
export async function submitRun(fleet: FleetClient, data: RunJobData & { run_id: string }): Promise<boolean> {
  const jobId = jobIdOf(data.run_id);
  if ((await fleet.queue.getJob(jobId)) || (await fleet.journal.getRun(data.run_id))) return false;
  await fleet.queue.add(JobName.run, data, { ...RUN_JOB_OPTIONS, jobId });
  return true;
}

/** How a submitted run ended, as `submit --wait` reports it. */
export type RunOutcome =
  { readonly kind: 'report'; readonly record: RunRecord } | { readonly kind: 'job-failed'; readonly reason: string };

/**
 * Waits until a run has ended: its journal records an end, or its job failed before the run could start
 * (a recipe that differs on the worker, F003) or ended for good. Polls; `signal` stops waiting.
 */
export async function waitForRun(
  fleet: FleetClient,
  runId: string,
  signal: AbortSignal,
  pollMs = 250,
): Promise<RunOutcome | undefined> {
  const jobId = jobIdOf(runId);
  while (!signal.aborted) {
    const record = await fleet.journal.getRun(runId);
    if (record?.status === 'succeeded') return { kind: 'report', record };
    const job = await fleet.queue.getJob(jobId);
    if (!job && !record) throw new RecipeError('F007', { runId, queue: fleet.queue.name });
    // A failed run whose job is still in play (being requeued after a transient failure) is not over yet.
    if (record?.status === 'failed' && (!job || ['failed', 'completed', 'unknown'].includes(await job.getState())))
      return { kind: 'report', record };
    if (job && (await job.getState()) === 'failed') {
      // The run may have recorded its end just after the last look.
      const again = await fleet.journal.getRun(runId);
      if (again && (again.status === 'succeeded' || again.status === 'failed'))
        return { kind: 'report', record: again };
      // `job` was read before it failed: its failedReason is read again (else it can be missing).
      const failed = await fleet.queue.getJob(jobId);
      return { kind: 'job-failed', reason: failed?.failedReason || job.failedReason || 'failed' };
    }
    await new Promise((r) => setTimeout(r, pollMs));
  }
  return undefined;
}

/** A fleet run as `recipe runs --redis` lists it: the journal's summary, or the queue's for runs not begun. */
export interface FleetRunSummary extends Omit<RunSummary, 'status'> {
  readonly status: RunStatus | 'queued';
  /**
   * For a run that never began (its job failed before the run started, e.g. F003): why, as the worker said
   * it, starting with the error code. Absent for runs the journal has.
   */
  readonly reason?: string;
}

/** The job of a run id: `run-<id>`, or a schedule's tick `repeat:<schedule>:<tick ms>` for `<schedule>-<ms>`. */
async function jobOfRun(fleet: FleetClient, runId: string): Promise<Job | undefined> {
  const job = (await fleet.queue.getJob(jobIdOf(runId))) as Job | undefined;
  if (job) return job;
  const tick = /^(.+)-(\d+)$/.exec(runId);
  return tick ? ((await fleet.queue.getJob(`repeat:${tick[1]}:${tick[2]}`)) as Job | undefined) : undefined;
}

/** A run known only to the queue (not begun): queued, or failed before it started, with the reason. */
function summaryOfJob(job: Job, runId: string, failed: boolean): FleetRunSummary {
  const data = job.data as RunJobData;
  const ended = failed && job.finishedOn ? new Date(job.finishedOn).toISOString() : null;
  return {
    run_id: runId,
    recipe: data.recipe.replace(/\.ya?ml$/, ''),
    file: data.recipe,
    status: failed ? 'failed' : 'queued',
    started_at: new Date(job.timestamp).toISOString(),
    ended_at: ended,
    duration_ms: 0,
    requests: 0,
    writes: 0,
    attempts: 0,
    dry_run: data.dry_run === true,
    ...(failed ? { reason: job.failedReason || 'failed' } : {}),
  };
}

/**
 * A fleet run by id: the journal's record when a worker began it, else what the queue knows (queued, or
 * failed before it started); undefined when neither has it.
 */
export async function getFleetRun(
  fleet: FleetClient,
  runId: string,
): Promise<{ record: RunRecord } | { queued: FleetRunSummary; state: string } | undefined> {
  const record = await fleet.journal.getRun(runId);
  if (record) return { record };
  const job = await jobOfRun(fleet, runId);
  if (!job || job.name !== JobName.run) return undefined;
  const state = await job.getState();
  return { queued: summaryOfJob(job, runId, state === 'failed'), state };
}

/**
 * The fleet's runs, newest first: runs in the journal (begun by a worker), runs still waiting in the queue or
 * just taken (queued), and runs whose job failed before the run began (failed, with the reason). A run the
 * journal shows interrupted whose job waits or is active again shows as queued or running: a worker is about
 * to resume it, or is resuming it.
 */
export async function listFleetRuns(
  fleet: FleetClient,
  filter: { status?: RunStatus | 'queued'; recipe?: string; limit?: number },
): Promise<FleetRunSummary[]> {
  const limit = filter.limit ?? 20;
  const waiting = (await fleet.queue.getJobs(['waiting', 'delayed', 'prioritized', 'active'], 0, 999)) as Job[];
  const failedJobs = (await fleet.queue.getJobs(['failed'], 0, 999)) as Job[];
  const notBegun: FleetRunSummary[] = [];
  for (const [jobs, failed] of [
    [waiting, false],
    [failedJobs, true],
  ] as const) {
    for (const job of jobs) {
      if (job.name !== JobName.run) continue;
      const runId = runIdOfJob(job.id, job.data as RunJobData) ?? '?';
      if (await fleet.journal.getRun(runId)) continue;
      notBegun.push(summaryOfJob(job, runId, failed));
    }
  }
  const queuedIds = new Set(waiting.map((j) => runIdOfJob(j.id, j.data as RunJobData)));
  const journaled = await fleet.journal.listRuns({
    ...(filter.recipe !== undefined ? { recipe: filter.recipe } : {}),
    limit: filter.status !== undefined ? 10_000 : limit,
  });
  const begun: FleetRunSummary[] = journaled.map((r) =>
    r.status === 'interrupted' && queuedIds.has(r.run_id) ? { ...r, status: 'queued' } : r,
  );
  return [
    ...notBegun.filter((q) => filter.recipe === undefined || q.recipe === filter.recipe || q.file === filter.recipe),
    ...begun,
  ]
    .filter((r) => filter.status === undefined || r.status === filter.status)
    .sort((a, b) => b.started_at.localeCompare(a.started_at))
    .slice(0, limit);
}

/**
 * `recipe resume RUN --redis`: asks the workers to resume or redrive a run. Its job (kept after it failed)
 * gets the request in its data and goes back to the queue; the worker that takes it resumes the run from the
 * journal with the request's flags. F007 unknown run; F022 when its job is still queued or running, or is no
 * longer in the queue (`--here` resumes it on this machine).
 */
export async function requestRedrive(
  fleet: FleetClient,
  runId: string,
  flags: Omit<RedriveRequest, 'requested_at'>,
): Promise<void> {
  const job = await jobOfRun(fleet, runId);
  if (!job) {
    if (!(await fleet.journal.getRun(runId))) throw new RecipeError('F007', { runId, queue: fleet.queue.name });
    throw new RecipeError('F022', {
      runId,
      reason: 'its job is no longer in the queue; resume it on this machine with --here',
    });
  }
  const state = await job.getState();
  if (state !== 'failed' && state !== 'completed')
    throw new RecipeError('F022', { runId, reason: `its job is ${state}: a worker will take it (or has it)` });
  await job.updateData({ ...(job.data as RunJobData), redrive: { ...flags, requested_at: Date.now() } });
  await job.retry(state, { resetAttemptsMade: true, resetAttemptsStarted: true });
}
