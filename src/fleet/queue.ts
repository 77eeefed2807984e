import { resolve } from 'node:path';
import type { Job, JobsOptions } from 'bullmq';
import type { Plan } from '../compile/plan.js';
import { RecipeError } from '../errors/index.js';
import type { JournalStore, RunRecord, RunStatus, RunSummary } from '../journal/index.js';
import { declaredSecrets, recipeFiles } from '../run/index.js';
import { jobIdOf, JobName, runIdOfJob, type RunJobData } from './job.js';
import { hashFile, pinnedPath } from './recipe-pin.js';
import { checkedStore, type FleetStore } from './fleet-store.js';
import { connectStore } from './open-store.js';
import type { FleetQueue } from './store-connections.js';

/**
 * What the queue's producers share (`recipe submit`, `recipe schedule`, `recipe runs --redis/--postgres`): the
 * queue, the fleet's journal, and the options every run job gets.
 */
export interface FleetClient {
  readonly store: FleetStore;
  readonly queue: FleetQueue;
  readonly journal: JournalStore;
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
  const [first, ...called] = recipeFiles(plan);
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
    if (record && (record.status === 'succeeded' || record.status === 'failed')) return { kind: 'report', record };
    const job = await fleet.queue.getJob(jobId);
    if (!job && !record) throw new RecipeError('F007', { runId, queue: fleet.queue.name });
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
}

/**
 * The fleet's runs, newest first: runs in the journal (begun by a worker) and runs still waiting in the
 * queue (queued). A run the journal shows interrupted whose job waits or is active again shows as queued
 * or running: a worker is about to resume it, or is resuming it.
 */
export async function listFleetRuns(
  fleet: FleetClient,
  filter: { status?: RunStatus | 'queued'; recipe?: string; limit?: number },
): Promise<FleetRunSummary[]> {
  const limit = filter.limit ?? 20;
  const waiting = (await fleet.queue.getJobs(['waiting', 'delayed', 'prioritized'], 0, 999)) as Job[];
  const queued: FleetRunSummary[] = [];
  for (const job of waiting) {
    if (job.name !== JobName.run) continue;
    const data = job.data as RunJobData;
    const runId = runIdOfJob(job.id, data) ?? '?';
    if (await fleet.journal.getRun(runId)) continue;
    queued.push({
      run_id: runId,
      recipe: data.recipe.replace(/\.ya?ml$/, ''),
      file: data.recipe,
      status: 'queued',
      started_at: new Date(job.timestamp).toISOString(),
      ended_at: null,
      duration_ms: 0,
      requests: 0,
      writes: 0,
      attempts: 0,
      dry_run: data.dry_run === true,
    });
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
    ...queued.filter((q) => filter.recipe === undefined || q.recipe === filter.recipe || q.file === filter.recipe),
    ...begun,
  ]
    .filter((r) => filter.status === undefined || r.status === filter.status)
    .sort((a, b) => b.started_at.localeCompare(a.started_at))
    .slice(0, limit);
}
