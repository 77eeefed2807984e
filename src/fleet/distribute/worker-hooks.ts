import type { Job } from 'bullmq';
import { maskProjectSecrets, type ForeachDistributor } from '../../run/index.js';
import type { WorkerContext } from '../worker-context.js';
import { processChunkJob } from './chunk-job.js';
import type { ChunkJobResult } from './chunk-data.js';
import { createDistributor } from './distributor.js';

/** What the fleet worker calls for a job named 'chunk': a client of its own for the chunk, closed after. */
export async function processChunkForWorker(
  job: Job,
  signal: AbortSignal | undefined,
  ctx: WorkerContext,
): Promise<ChunkJobResult> {
  const client = ctx.newClient();
  // As its run masks them: the secrets of every recipe in the worker's folder (src/run/project-secrets.ts).
  maskProjectSecrets(client.redactor, ctx.env, ctx.recipesDir);
  try {
    const result = await processChunkJob(job, {
      kv: ctx.connections.kv,
      recipesDir: ctx.recipesDir,
      catalog: ctx.catalog,
      client,
      redactor: client.redactor,
      env: ctx.env,
      journal: ctx.journal,
      ...(signal ? { signal } : {}),
      log: (level, message) => {
        if (level !== 'debug') ctx.log(`chunk ${job.id ?? '?'}: ${message}`);
      },
    });
    return { ...result, worker: ctx.workerName };
  } finally {
    await client.close();
  }
}

/** The distributor of a run job (RunOptions.distributor): its chunks become the job's flow children. */
export function distributorForRunJob(job: Job, ctx: WorkerContext): ForeachDistributor {
  return createDistributor({
    connections: ctx.connections,
    job,
    recipesDir: ctx.recipesDir,
    ...(ctx.slots ? { spare: ctx.slots } : {}),
    ...(ctx.journal.foldParts
      ? { foldParts: (runId, parts) => ctx.journal.foldParts?.(runId, parts) ?? Promise.resolve() }
      : {}),
  });
}
