import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Job } from 'bullmq';
import type { FleetStore } from '../../src/fleet/fleet-store.js';
import { openFleet } from '../../src/fleet/queue.js';
import { startFleetWorker, type FleetWorker } from '../../src/fleet/worker.js';
import type { RunJobData, RunJobResult } from '../../src/fleet/job.js';
import type { RunReport } from '../../src/run/index.js';

/** A recipes directory with one recipe in it. */
export function recipesDir(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'recipe-dist-'));
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return dir;
}

/** Fleet workers in this process (each with its own store connections, as separate machines would have). */
export async function startWorkers(o: {
  n: number;
  store: FleetStore;
  queue: string;
  recipesDir: string;
  serviceUrl: string;
  concurrency?: number;
  logs?: string[][];
  /** The workers' environment (where they read the recipe's secrets); default empty. */
  env?: Record<string, string>;
}): Promise<FleetWorker[]> {
  const workers: FleetWorker[] = [];
  for (let i = 0; i < o.n; i++) {
    const lines: string[] = [];
    o.logs?.push(lines);
    workers.push(
      await startFleetWorker({
        store: o.store,
        queue: o.queue,
        concurrency: o.concurrency ?? 1,
        recipesDir: o.recipesDir,
        connection: { baseUrl: o.serviceUrl, clientId: 'id-1', clientSecret: 'shh-secret-1', workspace: 'default' },
        env: o.env ?? {},
        lockMs: 5000,
        log: (line) => lines.push(line),
      }),
    );
  }
  return workers;
}

/** What submitting a run takes: `recipe` is a file in `dir`; inputs and secret names as `recipe submit` sends them. */
export interface Submission {
  store: FleetStore;
  queue: string;
  dir: string;
  recipe: string;
  runId: string;
  inputs?: Record<string, unknown>;
  secrets?: string[];
  attempts?: number;
  timeoutMs?: number;
}

/** Adds the run's job as `recipe submit` would, without waiting. */
export async function submit(o: Submission): Promise<void> {
  const fleet = await openFleet(o.store, o.queue);
  try {
    const sha256 = createHash('sha256')
      .update(readFileSync(join(o.dir, o.recipe)))
      .digest('hex');
    const data: RunJobData = {
      recipe: o.recipe,
      sha256,
      files: [],
      inputs: o.inputs ?? {},
      secrets: o.secrets ?? [],
      run_id: o.runId,
      submitted_at: Date.now(),
    };
    await fleet.queue.add('run', data, {
      jobId: `run-${o.runId}`,
      attempts: o.attempts ?? 2,
      backoff: { type: 'fixed', delay: 50 },
    });
  } finally {
    await fleet.close();
  }
}

/** Submits a run and waits for its job to end. */
export async function submitAndWait(
  o: Submission,
): Promise<{ report: RunReport | undefined; failedReason: string | undefined }> {
  await submit(o);
  return waitForJob(o);
}

/** Waits for a run's job to end: its report, or why it failed. */
export async function waitForJob(
  o: Submission,
): Promise<{ report: RunReport | undefined; failedReason: string | undefined }> {
  const fleet = await openFleet(o.store, o.queue);
  const queue = fleet.queue;
  try {
    const deadline = Date.now() + (o.timeoutMs ?? 60_000);
    for (;;) {
      // The state first, then the job: a job read before it ended would lack its returnvalue or failedReason.
      const state = await queue.getJobState(`run-${o.runId}`);
      const job = (await queue.getJob(`run-${o.runId}`)) as Job<RunJobData, RunJobResult> | undefined;
      if (job && state === 'completed')
        return { report: JSON.parse(job.returnvalue.report) as RunReport, failedReason: undefined };
      if (job && state === 'failed') return { report: undefined, failedReason: job.failedReason };
      if (Date.now() > deadline) throw new Error(`run ${o.runId} did not end in time (state ${String(state)})`);
      await new Promise((r) => setTimeout(r, 50));
    }
  } finally {
    await fleet.close();
  }
}
