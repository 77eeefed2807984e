import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { isAbsolute, relative, resolve, sep } from 'node:path';
import type { Job, JobsOptions } from 'bullmq';
import { RecipeError, type ErrorCode } from '../../errors/index.js';
import {
  mergeChunkStepStats,
  type ChunkOutcome,
  type ChunkStepStats,
  type DistributedForeach,
  type ForeachDistributor,
} from '../../run/index.js';
import type { ChunkJobData, ChunkJobResult } from './chunk-data.js';
import type { StoreConnections } from '../store-connections.js';
import type { SpareSlots } from './spare-slots.js';
import { DISTRIBUTE_PREFIX, dropVisit, partName, saveVisit, visitHash, VisitKeys } from './visit-store.js';

/** What a worker hands the distributor of the run it is running. */
export interface DistributorOptions {
  /** The fleet's store: the visit is stored (kv) and the flow added (a flow producer) through it. */
  readonly connections: Pick<StoreConnections, 'kv' | 'newFlowProducer'>;
  /** The run's job: the chunks are its flow children, in its queue, so any worker of the queue runs them. */
  readonly job: Job;
  /** The worker's recipes directory: a chunk names the recipe file relative to it. */
  readonly recipesDir: string;
  /**
   * The worker running the run: while the run waits for its chunks it takes one more job (its slot would
   * otherwise sit idle, and a fleet of one worker could never run the chunks).
   */
  readonly spare?: SpareSlots;
  /** Key prefix of the visits in the store (default recipe:distribute). */
  readonly prefix?: string;
  /** How often the run looks at its chunks (default 100 ms). */
  readonly pollMs?: number;
  /**
   * Tells the run's journal that the gathered chunks' counters are now the run's own (JournalStore.foldParts),
   * so that the run's totals count them once.
   */
  readonly foldParts?: (runId: string, parts: readonly string[]) => Promise<void>;
}

/** Retries of a chunk when the run's job says nothing: the queue's usual policy. */
const DEFAULT_ATTEMPTS = 3;
const DEFAULT_BACKOFF = { type: 'exponential', delay: 1000 } as const;

/** The distributor a fleet worker sets on the run context of each run it runs (RunOptions.distributor). */
export function createDistributor(o: DistributorOptions): ForeachDistributor {
  return {
    distribute: (visit, signal) => distribute(o, visit, signal),
    cancel: async (visit) => {
      const keys = new VisitKeys(o.prefix ?? DISTRIBUTE_PREFIX, visit.runId, visit.stepPath);
      await o.connections.kv.set(keys.cancel, '1', 24 * 3600);
    },
  };
}

/**
 * Stores the visit once, adds one chunk job per `chunk` items as flow children of the run's job (ids fixed
 * by the run, the step path and the chunk: a run resumed on another worker adds the same children again,
 * which BullMQ keeps as they are), waits until none is left unprocessed, and puts the results back in item
 * order. A chunk that failed for good (after its retries) fails the foreach with its error; the other chunks
 * are told to stop, and the run waits for them to settle (BullMQ refuses to finish a parent with children
 * still pending).
 */
async function distribute(
  o: DistributorOptions,
  visit: DistributedForeach,
  signal: AbortSignal,
): Promise<ChunkOutcome> {
  const keys = new VisitKeys(o.prefix ?? DISTRIBUTE_PREFIX, visit.runId, visit.stepPath);
  const file = recipeFile(o.recipesDir, visit.file);
  const sha256 = createHash('sha256')
    .update(await readFile(resolve(visit.file)))
    .digest('hex');
  const chunks = Math.ceil(visit.items.length / visit.chunk);
  const ids = Array.from({ length: chunks }, (_, i) => `${visit.runId}.${visitHash(visit.stepPath)}.${i}`);
  await saveVisit(o.connections.kv, keys.visit, visit);
  const parent = { id: o.job.id as string, queue: o.job.queueQualifiedName };
  const retry: JobsOptions = {
    attempts: Math.max(1, o.job.opts.attempts ?? DEFAULT_ATTEMPTS),
    backoff: o.job.opts.backoff ?? DEFAULT_BACKOFF,
  };
  // A resumed run adds only the chunks not done yet (done ones may be gone: they are removed on completion).
  const done = await settledChunks(o.job, new Set(ids));
  const flow = o.connections.newFlowProducer();
  try {
    await flow.addBulk(
      ids.flatMap((jobId, chunk) => {
        if (done.has(jobId)) return [];
        const start = chunk * visit.chunk;
        const data: ChunkJobData = {
          run_id: visit.runId,
          file,
          sha256,
          step_path: visit.stepPath,
          visit: keys.visit,
          chunk,
          start,
          end: Math.min(visit.items.length, start + visit.chunk),
        };
        return [
          {
            name: 'chunk',
            queueName: o.job.queueName,
            data,
            // A chunk that fails for good is set aside, not left pending: the run sees it and can still end.
            opts: { ...retry, jobId, parent, ignoreDependencyOnFailure: true, removeOnComplete: true },
          },
        ];
      }),
    );
  } finally {
    await flow.close();
  }
  const giveBack = o.spare?.lend();
  try {
    const failure = await waitForChunks(o, ids, keys, signal);
    if (failure) throw failure;
    const outcome = await gather(o.job, ids, visit.items.length);
    await o.foldParts?.(
      visit.runId,
      ids.map((_, chunk) => partName(visit.stepPath, chunk)),
    );
    return outcome;
  } finally {
    giveBack?.();
    if (!signal.aborted) await dropVisit(o.connections.kv, keys, chunks).catch(() => undefined);
  }
}

/** Waits until no chunk of the visit is pending; the first chunk that failed for good, if any, as an error. */
async function waitForChunks(
  o: DistributorOptions,
  ids: readonly string[],
  keys: VisitKeys,
  signal: AbortSignal,
): Promise<RecipeError | undefined> {
  const mine = new Set(ids);
  let failure: RecipeError | undefined;
  for (;;) {
    if (signal.aborted) throw new RecipeError('X009', {});
    const pending = await unprocessed(o.job, mine);
    if (!failure) {
      const failed = await failedChunks(o.job, mine);
      if (failed.length > 0) {
        failure = chunkError(failed[0] as { id: string; reason: string }, ids);
        // The others stop at their next item; they fail without retrying, and the run can end.
        await o.connections.kv.set(keys.cancel, '1', 24 * 3600);
      }
    }
    if (pending === 0) return failure;
    await sleep(o.pollMs ?? 100, signal);
  }
}

/** How many of this visit's chunks the run's job still waits for (its other children are not this visit's). */
async function unprocessed(job: Job, mine: ReadonlySet<string>): Promise<number> {
  let count = 0;
  let cursor = 0;
  do {
    const page = await job.getDependencies({ unprocessed: { cursor, count: 1000 } });
    for (const key of page.unprocessed ?? []) if (mine.has(jobIdOf(key))) count++;
    cursor = page.nextUnprocessedCursor ?? 0;
  } while (cursor !== 0);
  return count;
}

/** This visit's chunks the run's job already has an outcome of (processed, or failed for good). */
async function settledChunks(job: Job, mine: ReadonlySet<string>): Promise<Set<string>> {
  const settled = new Set<string>();
  let cursor = 0;
  do {
    const page = await job.getDependencies({ processed: { cursor, count: 1000 } });
    for (const key of Object.keys(page.processed ?? {})) if (mine.has(jobIdOf(key))) settled.add(jobIdOf(key));
    cursor = page.nextProcessedCursor ?? 0;
  } while (cursor !== 0);
  for (const f of await failedChunks(job, mine)) settled.add(f.id);
  return settled;
}

/** This visit's chunks that failed for good, with BullMQ's failed reason (the chunk's error as JSON). */
async function failedChunks(job: Job, mine: ReadonlySet<string>): Promise<{ id: string; reason: string }[]> {
  const ignored = await job.getIgnoredChildrenFailures();
  return Object.entries(ignored)
    .map(([key, reason]) => ({ id: jobIdOf(key), reason }))
    .filter((f) => mine.has(f.id));
}

/** The error a chunk failed with, rebuilt from its failed reason (processChunkJob throws it as JSON). */
function chunkError(failed: { id: string; reason: string }, ids: readonly string[]): RecipeError {
  try {
    const e = JSON.parse(failed.reason) as { code?: string; params?: Record<string, unknown>; location?: object };
    if (typeof e.code === 'string') return new RecipeError(e.code as ErrorCode, e.params ?? {}, e.location);
  } catch {
    // Not ours (a worker crashed, BullMQ gave up on a stalled job): say what BullMQ said.
  }
  const [runId, , chunk] = failed.id.split('.');
  return new RecipeError('F050', {
    chunk: chunk ?? String(ids.indexOf(failed.id)),
    stepPath: '?',
    runId: runId ?? '?',
    reason: failed.reason,
  });
}

/** Every chunk's results, back in item order, and the counters summed. */
async function gather(job: Job, ids: readonly string[], total: number): Promise<ChunkOutcome> {
  const values = await job.getChildrenValues<ChunkJobResult>();
  const byId = new Map(Object.entries(values).map(([key, value]) => [jobIdOf(key), value]));
  const results: unknown[] = new Array(total);
  let requests = 0;
  let retries = 0;
  let writes = 0;
  let steps: ChunkStepStats[] | undefined;
  for (const id of ids) {
    const r = byId.get(id);
    if (!r) throw new RecipeError('F050', { chunk: id, stepPath: '?', runId: job.id ?? '?', reason: 'no result' });
    for (let i = 0; i < r.results.length; i++) results[r.start + i] = r.results[i];
    requests += r.requests;
    retries += r.retries;
    writes += r.writes;
    steps = mergeChunkStepStats(steps, r.steps);
  }
  return { results, requests, retries, writes, ...(steps ? { steps } : {}) };
}

/** `bull:queue:id` (Redis) or `queue:id` (PostgreSQL) → id (ids hold no colon). */
function jobIdOf(key: string): string {
  return key.slice(key.lastIndexOf(':') + 1);
}

/** The file relative to the recipes directory, '/'-separated; F052 when it is outside. */
function recipeFile(recipesDir: string, file: string): string {
  const rel = relative(resolve(recipesDir), resolve(file));
  if (rel.startsWith('..') || rel === '' || isAbsolute(rel))
    throw new RecipeError('F052', { jobId: file, reason: `${file} is not inside the recipes directory ${recipesDir}` });
  return rel.split(sep).join('/');
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((done) => {
    const timer = setTimeout(finish, ms);
    function finish(): void {
      clearTimeout(timer);
      signal.removeEventListener('abort', finish);
      done();
    }
    signal.addEventListener('abort', finish, { once: true });
  });
}
