import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { isAbsolute, relative, resolve } from 'node:path';
import { UnrecoverableError, type Job } from 'bullmq';
import type { Redactor } from '../../client/index.js';
import type { ConnectorCatalog } from '../../catalog/index.js';
import type { Plan } from '../../compile/index.js';
import { RecipeError } from '../../errors/index.js';
import type { JournalStore, RunJournal } from '../../journal/index.js';
import {
  checkRecipe,
  planSettlement,
  runForeachChunk,
  type ConnectorApi,
  type LogLevel,
  type ReplayPolicy,
} from '../../run/index.js';
import { isChunkJobData, type ChunkJobData, type ChunkJobResult } from './chunk-data.js';
import type { FleetKv } from '../store-connections.js';
import { loadVisit, partName } from './visit-store.js';

/**
 * The part of the fleet's journal store a chunk needs: a hold on a part of a run (its calls join the run's
 * exchanges, its counters the run's totals) and the run's writes in doubt (settled before a chunk that runs
 * again sends anything). Every journal backend has both (JournalStore).
 */
export type PartJournalStore = Pick<JournalStore, 'holdPart' | 'writesInDoubt'>;

/** What a worker gives processChunkJob: its own connections, client, environment and journal. */
export interface ChunkWorkerDeps {
  /** The fleet's store's kv: the visit, its cancel flag, the chunk's "started" marker. */
  readonly kv: FleetKv;
  readonly recipesDir: string;
  /** The catalog the chunk's recipe is checked against, as its run's was (WorkerContext.catalog). */
  readonly catalog?: () => Promise<ConnectorCatalog | undefined>;
  /** The worker's connector client (with its rate limiter, if any). */
  readonly client: ConnectorApi;
  /** Masks the client's secrets; the recipe's declared secrets are added as the chunk reads them. */
  readonly redactor: Redactor;
  /** Where $secrets come from: this worker's environment. */
  readonly env: Readonly<Record<string, string | undefined>>;
  /** Without it, a chunk that runs again sends its calls again (writes included): fleets journal. */
  readonly journal?: PartJournalStore;
  /** Stops the chunk (the worker is closing); it fails and BullMQ hands it to another worker. */
  readonly signal?: AbortSignal;
  readonly log?: (level: LogLevel, message: string) => void;
  /** How often a running chunk checks whether its visit was cancelled (default 250 ms). */
  readonly cancelPollMs?: number;
}

/**
 * Runs a job named 'chunk': items start..end-1 of a distributed foreach of run run_id, on this worker, as the
 * run would have run them. A chunk that runs again (a retry, or after a worker died in it) asks the run's
 * journal first: answered calls are replayed, not sent; calls that failed are sent again; writes in doubt
 * settle as a resume settles them (the same Idempotency-Key: the service answers the first answer).
 * Its error travels as JSON in BullMQ's failed reason, so the run fails with the item's code and location.
 */
export async function processChunkJob(job: Job, deps: ChunkWorkerDeps): Promise<ChunkJobResult> {
  const data: unknown = job.data;
  if (!isChunkJobData(data)) throw unrecoverable(new RecipeError('F052', { jobId: job.id, reason: 'malformed data' }));
  const kv = deps.kv;
  const cancelKey = data.visit.replace(/:visit$/, ':cancel');
  if (await kv.exists(cancelKey)) throw unrecoverable(cancelled(data));
  const visit = await loadVisit(kv, data.visit);
  if (!visit)
    throw unrecoverable(
      new RecipeError('F052', { jobId: job.id, reason: "its foreach is gone from the fleet's store" }),
    );
  const plan = await loadPlan(deps, data, job.id);
  const startedKey = data.visit.replace(/:visit$/, `:started:${data.chunk}`);
  const firstTime = await kv.setIfAbsent(startedKey, String(job.attemptsMade), 7 * 24 * 3600);
  const resuming = !firstTime || job.attemptsMade > 0;

  const stop = new AbortController();
  const onStop = (): void => stop.abort();
  deps.signal?.addEventListener('abort', onStop, { once: true });
  let wasCancelled = false;
  const watch = setInterval(() => {
    kv.exists(cancelKey).then(
      (set) => {
        if (set) {
          wasCancelled = true;
          stop.abort();
        }
      },
      () => undefined,
    );
  }, deps.cancelPollMs ?? 250);
  watch.unref();

  let journal: RunJournal | undefined;
  try {
    journal = await holdPart(deps, data);
    const replay = resuming && deps.journal ? await replayPolicy(deps, plan, data) : undefined;
    const outcome = await runForeachChunk({
      plan,
      visit,
      start: data.start,
      end: data.end,
      client: deps.client,
      redactor: deps.redactor,
      env: deps.env,
      signal: stop.signal,
      ...(journal ? { journal } : {}),
      ...(replay ? { replay } : {}),
      cwd: deps.recipesDir,
      ...(deps.log ? { log: deps.log } : {}),
    });
    await journal?.flush();
    return { chunk: data.chunk, start: data.start, ...outcome };
  } catch (err) {
    if (wasCancelled) throw unrecoverable(cancelled(data));
    const e = err instanceof RecipeError ? err : new RecipeError('X001', { message: String(err) });
    // The item's error as the run will report it (masked: it is stored in the fleet's store).
    const json = deps.redactor.redact(JSON.stringify({ code: e.code, params: e.params, location: e.location }));
    if (e.class === 'invalid' || e.class === 'config') throw new UnrecoverableError(json);
    throw new Error(json);
  } finally {
    clearInterval(watch);
    deps.signal?.removeEventListener('abort', onStop);
    await journal?.release().catch(() => undefined);
  }
}

/** How long a chunk waits for the part a dead worker held (its lease runs out) before the queue retries it. */
const HOLD_WAIT_MS = 60_000;

/**
 * The chunk's part of the run's journal. A worker that died in this chunk still holds it until its lease runs
 * out (J003): wait for that, as the queue waited for the job's lock, rather than fail the chunk for good.
 */
async function holdPart(deps: ChunkWorkerDeps, data: ChunkJobData): Promise<RunJournal | undefined> {
  if (!deps.journal) return undefined;
  const part = partName(data.step_path, data.chunk);
  const deadline = Date.now() + HOLD_WAIT_MS;
  for (;;) {
    try {
      return await deps.journal.holdPart(data.run_id, part);
    } catch (err) {
      const held = err instanceof RecipeError && err.code === 'J003';
      if (!held) throw err;
      // Still held after the wait: a plain error, so the queue retries the chunk later.
      if (Date.now() > deadline) throw new Error(`${err.code} ${err.message}`);
      if (deps.signal?.aborted) throw new Error(`${err.code} ${err.message}`);
      await new Promise((r) => setTimeout(r, 250));
    }
  }
}

/** A chunk that runs again: answered calls replay, failed calls are sent again, writes in doubt settle. */
async function replayPolicy(deps: ChunkWorkerDeps, plan: Plan, data: ChunkJobData): Promise<ReplayPolicy> {
  const mine = (await deps.journal?.writesInDoubt(data.run_id))?.filter((w) => inChunk(w.call_key, data)) ?? [];
  const settle = await planSettlement(
    mine,
    { assumeSent: [], assumeNotSent: [] },
    {
      runId: data.run_id,
      plan,
      honoursIdempotencyKeys: async () =>
        deps.client.idempotencyHonoured === true || ((await deps.client.probeIdempotencyKeys?.()) ?? false),
    },
  );
  return { failedCall: null, retryFailedItems: true, settle };
}

/** True for a call key of one of the chunk's items: `<step path>[i]...` with start <= i < end. */
function inChunk(callKey: string, data: ChunkJobData): boolean {
  const head = `${data.step_path}[`;
  if (!callKey.startsWith(head)) return false;
  const index = Number.parseInt(callKey.slice(head.length), 10);
  return index >= data.start && index < data.end;
}

async function loadPlan(deps: ChunkWorkerDeps, data: ChunkJobData, jobId: string | undefined): Promise<Plan> {
  const recipesDir = deps.recipesDir;
  const path = resolve(recipesDir, data.file);
  const rel = relative(resolve(recipesDir), path);
  if (rel.startsWith('..') || isAbsolute(rel))
    throw unrecoverable(new RecipeError('F052', { jobId, reason: `${data.file} is outside the recipes directory` }));
  let bytes: Buffer;
  try {
    bytes = await readFile(path);
  } catch (err) {
    throw unrecoverable(new RecipeError('F052', { jobId, reason: `cannot read ${data.file}: ${String(err)}` }));
  }
  const actual = createHash('sha256').update(bytes).digest('hex');
  if (actual !== data.sha256)
    throw unrecoverable(new RecipeError('F051', { file: data.file, actual, expected: data.sha256 }));
  const catalog = await deps.catalog?.();
  const { recipe, diagnostics } = await checkRecipe(path, catalog ? { catalog } : {});
  const plan = recipe?.plan;
  if (!plan)
    throw unrecoverable(
      new RecipeError('F052', { jobId, reason: `${data.file}: ${diagnostics[0]?.message ?? 'invalid recipe'}` }),
    );
  return plan;
}

function cancelled(data: ChunkJobData): RecipeError {
  return new RecipeError('F053', { chunk: data.chunk, stepPath: data.step_path, runId: data.run_id });
}

/** Fails the job without retrying it: nothing a retry could change. */
function unrecoverable(err: unknown): UnrecoverableError {
  if (err instanceof UnrecoverableError) return err;
  const e = err instanceof RecipeError ? err : new RecipeError('X001', { message: String(err) });
  return new UnrecoverableError(JSON.stringify({ code: e.code, params: e.params, location: e.location }));
}
