import type { Job } from 'bullmq';
import type { ChunkJobData, ChunkJobResult } from './distribute/chunk-data.js';
import { JobName, runIdOfJob, type RunJobData } from './job.js';
import type { HeldLease } from '../journal/index.js';
import type { FleetClient } from './queue.js';
import type { WorkerRecord } from './registry.js';
import { listSchedules, type ScheduleSummary } from './schedules.js';

/**
 * What `recipe fleet status` shows: one read of the fleet's state in its store (Redis or PostgreSQL).
 * Plain data; its JSON shape is the `--json` output (docs/fleet.md#fleet-status).
 */
export interface FleetStatus {
  readonly queue: string;
  /** Epoch ms of this read. */
  readonly at: number;
  /** Live workers (a heartbeat within the last 15 s), with the jobs they hold. */
  readonly workers: readonly WorkerStatus[];
  /** Jobs by state in the queue (runs and chunks). */
  readonly jobs: QueueCounts;
  readonly schedules: readonly ScheduleSummary[];
  /** Runs (and parts of runs) held now, and when their hold runs out unless renewed. */
  readonly leases: readonly LeaseStatus[];
  /** The chunks of distributed foreach steps not yet gathered by their run. */
  readonly chunks: readonly ChunkStatus[];
}

export interface WorkerStatus extends Omit<WorkerRecord, 'started_at' | 'heartbeat_at'> {
  readonly started_at: string;
  readonly heartbeat_at: string;
}

export interface QueueCounts {
  readonly waiting: number;
  readonly active: number;
  readonly delayed: number;
  readonly failed: number;
  readonly completed: number;
  /** Run jobs waiting for their distributed chunks. */
  readonly waiting_children: number;
}

/** A run (or a part of one) held now: the journal's lease (JournalStore.leases). */
export type LeaseStatus = HeldLease;

export interface ChunkStatus {
  readonly run_id: string;
  readonly step_path: string;
  readonly chunk: number;
  /** waiting, active, delayed, failed (for good), or completed (done, its run not yet past the foreach). */
  readonly state: string;
  /** The worker that runs (or ran) it, when known. */
  readonly worker: string | null;
  /** Attempts that failed so far (the queue retries a chunk by the run job's policy). */
  readonly retries: number;
  /** Items done: the chunk's items once it completed, 0 before (a chunk reports at its end). */
  readonly items_done: number;
  readonly items_total: number;
  /** Why it failed, for a failed chunk. */
  readonly reason?: string;
}

/** Reads the fleet's state: workers, job counts, schedules, leases, chunks. */
export async function fleetStatus(fleet: FleetClient): Promise<FleetStatus> {
  const queue = fleet.queue.name;
  const [workers, counts, schedules, leases, chunks] = await Promise.all([
    fleet.registry.listWorkers(queue),
    fleet.queue.getJobCounts('waiting', 'active', 'delayed', 'failed', 'completed', 'waiting-children', 'prioritized'),
    listSchedules(fleet),
    // A fleet's journal (Redis, PostgreSQL) has leases; a journal without them holds no run for others.
    fleet.journal.leases?.() ?? Promise.resolve([]),
    chunkStatuses(fleet),
  ]);
  return {
    queue,
    at: Date.now(),
    workers: workers.map((w) => ({
      ...w,
      started_at: new Date(w.started_at).toISOString(),
      heartbeat_at: new Date(w.heartbeat_at).toISOString(),
    })),
    jobs: {
      waiting: (counts.waiting ?? 0) + (counts.prioritized ?? 0),
      active: counts.active ?? 0,
      delayed: counts.delayed ?? 0,
      failed: counts.failed ?? 0,
      completed: counts.completed ?? 0,
      waiting_children: counts['waiting-children'] ?? 0,
    },
    schedules,
    leases,
    chunks,
  };
}

/**
 * Chunks still in the queue (a completed chunk is removed from it: it is read from its run job's processed
 * children instead, as long as that run waits for its foreach).
 */
async function chunkStatuses(fleet: FleetClient): Promise<ChunkStatus[]> {
  const out: ChunkStatus[] = [];
  for (const state of ['active', 'waiting', 'delayed', 'failed', 'prioritized'] as const) {
    const jobs = (await fleet.queue.getJobs([state], 0, 999)) as Job[];
    for (const job of jobs) {
      if (job.name !== JobName.chunk) continue;
      const d = job.data as ChunkJobData;
      out.push({
        run_id: d.run_id,
        step_path: d.step_path,
        chunk: d.chunk,
        state: state === 'prioritized' ? 'waiting' : state,
        worker: job.processedBy ?? null,
        retries: job.attemptsMade,
        items_done: 0,
        items_total: d.end - d.start,
        ...(state === 'failed' ? { reason: job.failedReason } : {}),
      });
    }
  }
  const parents = (await fleet.queue.getJobs(['waiting-children', 'active'], 0, 999)) as Job[];
  for (const parent of parents) {
    if (parent.name !== JobName.run) continue;
    const runId = runIdOfJob(parent.id, parent.data as RunJobData) ?? '?';
    const done = await parent.getChildrenValues<ChunkJobResult>();
    for (const [key, r] of Object.entries(done)) {
      if (!key.includes(`:${runId}.`)) continue;
      out.push({
        run_id: runId,
        step_path: '',
        chunk: r.chunk,
        state: 'completed',
        worker: r.worker ?? null,
        retries: 0,
        items_done: r.results.length,
        items_total: r.results.length,
      });
    }
  }
  return out.sort((a, b) => a.run_id.localeCompare(b.run_id) || a.chunk - b.chunk);
}
