import type { ConnectorCatalog } from '../catalog/index.js';
import { catalogForService } from '../catalog/service-catalog.js';
import { hostname } from 'node:os';
import { resolve } from 'node:path';
import { UnrecoverableError, type Job } from 'bullmq';
import { ConnectorClient, type ConnectionConfig } from '../client/index.js';
import { RecipeError } from '../errors/index.js';
import { loadTracer } from '../telemetry/index.js';
import { processChunkForWorker, spareSlots } from './distribute/index.js';
import { checkedStore, type FleetStore } from './fleet-store.js';
import { connectStore } from './open-store.js';
import { checkMaxmemoryPolicy } from './redis-settings.js';
import { processRunJob } from './run-job.js';
import { watchQueueDepth } from './queue-metrics.js';
import { keepRetention } from './retention.js';
import type { WorkerContext } from './worker-context.js';
import type { CurrentJob } from './registry.js';
import { WorkerHeartbeat } from './workers.js';
import { JobName, runIdOfJob, type RunJobData } from './job.js';

/** How a worker is set up (`recipe worker`). */
export interface FleetWorkerOptions {
  /** The fleet's store (--redis or --postgres); `redisUrl` says Redis as before --postgres existed. */
  readonly store?: FleetStore;
  readonly redisUrl?: string;
  readonly queue: string;
  /** Jobs run at once by this worker (default 1). */
  readonly concurrency?: number;
  readonly recipesDir: string;
  readonly connection: ConnectionConfig;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly maxRpsPerConnector?: number;
  /**
   * How long a job's lock lasts without renewal (default 30 s): a worker that dies gives its jobs back
   * after at most this plus the stalled-check interval (the same by default). The journal's lease is the same.
   */
  readonly lockMs?: number;
  /** --retain: runs of the fleet's journal that ended longer ago than this (ms) are pruned (fleet/retention.ts). */
  readonly retainMs?: number;
  /** The recipe version this worker runs, shown by `recipe fleet status`. */
  readonly version?: string;
  readonly log: (line: string) => void;
}

/** A running worker. */
export interface FleetWorker {
  readonly name: string;
  /**
   * Stops taking jobs and lets the jobs in hand finish; those still running after `graceMs` are cancelled:
   * their journals record them cancelled and their jobs go back to the queue, where another worker resumes
   * them. Resolves once everything is closed.
   */
  shutdown(graceMs: number): Promise<void>;
}

/**
 * Starts a BullMQ worker on the queue, in the fleet's store: F001 when Redis cannot be reached, F010 when
 * PostgreSQL cannot (its schemas are migrated here, at the worker's start).
 */
export async function startFleetWorker(o: FleetWorkerOptions): Promise<FleetWorker> {
  const name = `${hostname()}:${process.pid}`;
  const lockMs = o.lockMs ?? 30_000;
  const store = o.store ?? checkedStore('redis', o.redisUrl ?? '');
  const connections = await connectStore(store);
  // A Redis that may evict keys can lose a job or a journal record: refuse (F020), or warn when unreadable.
  if (connections.redis) {
    try {
      const policy = await checkMaxmemoryPolicy(connections.redis);
      if ('unreadable' in policy)
        o.log(
          `warning: cannot read Redis maxmemory-policy (${policy.unreadable}); make sure it is noeviction (docs/fleet.md#redis-in-production)`,
        );
    } catch (err) {
      await connections.close();
      throw err;
    }
  }
  // The worker registry (`recipe fleet status`), in the fleet's store whichever it is.
  const heartbeat = new WorkerHeartbeat(
    connections.registry,
    {
      id: name,
      host: hostname(),
      pid: process.pid,
      version: o.version ?? 'unknown',
      concurrency: o.concurrency ?? 1,
      queue: o.queue,
      recipes_dir: resolve(o.recipesDir),
    },
    o.log,
  );
  // --max-rps-per-connector: every client of this worker asks the fleet's shared limit before each request.
  const limiter = o.maxRpsPerConnector !== undefined ? await connections.rateLimiter(o.maxRpsPerConnector) : undefined;
  // One more slot for each run that waits for its distributed chunks (src/fleet/distribute/spare-slots.ts).
  const slots = spareSlots({
    queue: o.queue,
    connections,
    process: (job, token, signal) => tracked(job, heartbeat, () => dispatch(job, token, signal, ctx)),
    lockMs,
    log: o.log,
  });
  const journal = await connections.openJournal({
    queue: o.queue,
    recipesDir: resolve(o.recipesDir),
    leaseMs: lockMs,
    holderName: name,
  });
  // One tracer for the worker's life (OpenTelemetry is loaded only when the OTLP variables are set).
  const tracer = await loadTracer(o.env, (message) => o.log(`traces: ${message}`), { workerId: name });
  const depth = watchQueueDepth(connections, o.queue, tracer);
  const retention = keepRetention(journal, o.retainMs, o.log);
  // Asked again after a failure (the service may come up after the worker), kept once known.
  let catalog: Promise<ConnectorCatalog | undefined> | undefined;
  const askCatalog = (): Promise<ConnectorCatalog | undefined> =>
    (catalog ??= catalogForService(o.connection.baseUrl, process.cwd(), (m) => o.log(`catalog: ${m}`)).then((c) => {
      if (!c) catalog = undefined;
      return c;
    }));
  const ctx: WorkerContext = {
    connections,
    queue: o.queue,
    recipesDir: resolve(o.recipesDir),
    journal,
    env: o.env,
    connection: o.connection,
    catalog: askCatalog,
    newClient: () => new ConnectorClient({ ...o.connection, ...(limiter ? { limiter } : {}) }),
    slots,
    ...(tracer ? { tracer } : {}),
    ...(o.maxRpsPerConnector !== undefined ? { maxRpsPerConnector: o.maxRpsPerConnector } : {}),
    workerName: name,
    log: o.log,
  };
  const opened = connections.newWorker(
    o.queue,
    (job: Job, token?: string, signal?: AbortSignal) =>
      tracked(job, heartbeat, () => dispatch(job, token, signal, ctx)),
    {
      // Recorded on each job it takes (processedBy): `recipe fleet status` shows which worker ran which chunk.
      name,
      concurrency: o.concurrency ?? 1,
      lockDuration: lockMs,
      stalledInterval: lockMs,
      // A job whose worker died is handed on (and resumed from the journal); a stall on a starved machine can be
      // a false alarm (the worker goes on: the journal lease keeps one holder), so five before the job fails.
      maxStalledCount: 5,
      autorun: false,
    },
    {
      error: (err) => o.log(`queue error: ${err.message}`),
      failed: (job, err) => {
        if (job) o.log(`job ${job.id} failed: ${err.message}`);
      },
      completed: (job) => o.log(`job ${job.id} completed`),
    },
  );
  const worker = opened.worker;
  void worker.run();
  await worker.waitUntilReady();
  await heartbeat?.start();
  o.log(
    `worker ${name} taking jobs from queue ${o.queue} on ${store.kind === 'redis' ? 'Redis' : 'PostgreSQL'} (concurrency ${o.concurrency ?? 1}, recipes ${ctx.recipesDir})`,
  );

  let closing: Promise<void> | undefined;
  return {
    name,
    shutdown: (graceMs) =>
      (closing ??= (async () => {
        o.log(`worker ${name} shutting down: no new jobs; waiting for the jobs in hand`);
        const closed = worker.close();
        const timer = setTimeout(() => {
          o.log(`worker ${name}: jobs still running after ${graceMs} ms are handed back`);
          worker.cancelAllJobs('worker shutting down');
        }, graceMs);
        await closed;
        clearTimeout(timer);
        retention?.stop();
        await heartbeat?.stop();
        await opened.close();
        await slots.close();
        await journal.close();
        await tracer?.shutdown().catch((err: unknown) => o.log(`traces not sent: ${(err as Error).message}`));
        await depth?.close();
        await connections.close();
      })()),
  };
}

/** Runs a job with the registry knowing it is in hand (`recipe fleet status`'s current runs). */
async function tracked<T>(job: Job, heartbeat: WorkerHeartbeat | undefined, run: () => Promise<T>): Promise<T> {
  if (!heartbeat) return run();
  const id = job.id ?? '?';
  heartbeat.took(currentJob(job, id));
  try {
    return await run();
  } finally {
    heartbeat.released(id);
  }
}

function currentJob(job: Job, id: string): CurrentJob {
  const data = (job.data ?? {}) as Partial<RunJobData> & { run_id?: unknown; step_path?: unknown; chunk?: unknown };
  if (job.name === JobName.chunk)
    return {
      job_id: id,
      run_id: typeof data.run_id === 'string' ? data.run_id : '?',
      kind: 'chunk',
      chunk: `${String(data.step_path)}#${String(data.chunk)}`,
      since: Date.now(),
    };
  const runId = typeof data.run_id === 'string' ? data.run_id : runIdOfJob(job.id, {});
  return { job_id: id, run_id: runId ?? '?', kind: 'run', since: Date.now() };
}

/** Runs a job by its name. */
async function dispatch(job: Job, token: string | undefined, signal: AbortSignal | undefined, ctx: WorkerContext) {
  switch (job.name) {
    case JobName.run:
      return processRunJob(job as Job<RunJobData>, token, signal, ctx);
    case JobName.chunk:
      return processChunkForWorker(job, signal, ctx);
    default:
      throw new UnrecoverableError(
        new RecipeError('F004', { jobId: job.id ?? '?', reason: `unknown job name "${job.name}"` }).message,
      );
  }
}
