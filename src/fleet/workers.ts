import type { Redis } from 'ioredis';

/**
 * The fleet's registry of live workers, for `recipe fleet status` and the console: each worker writes a
 * small record under a key with an expiry and renews it every HEARTBEAT_MS, so a worker that died (SIGKILL,
 * a lost machine) disappears from the registry within WORKER_TTL_MS without anyone cleaning up.
 *   recipe:fleet:<queue>:workers           sorted set: worker ids by last heartbeat (epoch ms)
 *   recipe:fleet:<queue>:worker:<id>       string (JSON WorkerRecord) with an expiry of WORKER_TTL_MS
 */

/** The key prefix of the fleet's own records (the journal has recipe:journal, BullMQ bull). */
export const FLEET_PREFIX = 'recipe:fleet';

/** How often a worker renews its record. */
export const HEARTBEAT_MS = 5000;

/** A record not renewed for this long is a dead worker's: three missed heartbeats. */
export const WORKER_TTL_MS = 3 * HEARTBEAT_MS;

/** What a job in hand is, as the registry shows it. */
export interface CurrentJob {
  readonly job_id: string;
  /** The run it belongs to (a chunk's run, for a chunk). */
  readonly run_id: string;
  readonly kind: 'run' | 'chunk';
  /** For a chunk: the foreach's step path and the chunk number. */
  readonly chunk?: string;
  /** Epoch ms. */
  readonly since: number;
}

/** One worker as the registry holds it. */
export interface WorkerRecord {
  /** host:pid, as in the worker's log and the journal's holder. */
  readonly id: string;
  readonly host: string;
  readonly pid: number;
  /** The recipe version the worker runs. */
  readonly version: string;
  readonly concurrency: number;
  readonly queue: string;
  readonly recipes_dir: string;
  /** Epoch ms. */
  readonly started_at: number;
  readonly heartbeat_at: number;
  readonly current: readonly CurrentJob[];
}

export function workerKeys(queue: string): { readonly set: string; worker(id: string): string } {
  const base = `${FLEET_PREFIX}:${queue}`;
  return { set: `${base}:workers`, worker: (id) => `${base}:worker:${id}` };
}

/** Writes (or renews) a worker's record. */
export async function writeWorkerRecord(redis: Redis, record: WorkerRecord): Promise<void> {
  const keys = workerKeys(record.queue);
  await redis
    .multi()
    .set(keys.worker(record.id), JSON.stringify(record), 'PX', WORKER_TTL_MS)
    .zadd(keys.set, record.heartbeat_at, record.id)
    .exec();
}

/** Removes a worker's record (it stopped cleanly). */
export async function removeWorkerRecord(redis: Redis, queue: string, id: string): Promise<void> {
  const keys = workerKeys(queue);
  await redis.multi().del(keys.worker(id)).zrem(keys.set, id).exec();
}

/** The live workers of a queue, by id; ids whose record expired are dropped from the set on the way. */
export async function listWorkerRecords(redis: Redis, queue: string): Promise<WorkerRecord[]> {
  const keys = workerKeys(queue);
  const ids = await redis.zrange(keys.set, 0, -1);
  if (ids.length === 0) return [];
  const texts = await redis.mget(ids.map((id) => keys.worker(id)));
  const live: WorkerRecord[] = [];
  const dead: string[] = [];
  texts.forEach((text, i) => {
    if (text === null) dead.push(ids[i] as string);
    else live.push(JSON.parse(text) as WorkerRecord);
  });
  if (dead.length > 0) await redis.zrem(keys.set, ...dead);
  return live.sort((a, b) => a.id.localeCompare(b.id));
}

/**
 * A worker's side of the registry: the jobs in hand, written at once when they change and renewed every
 * HEARTBEAT_MS. A failed write is logged and tried again at the next beat (Redis may be restarting).
 */
export class WorkerHeartbeat {
  private readonly current = new Map<string, CurrentJob>();
  private timer: NodeJS.Timeout | undefined;
  private readonly startedAt = Date.now();

  constructor(
    private readonly redis: Redis,
    private readonly base: Omit<WorkerRecord, 'started_at' | 'heartbeat_at' | 'current'>,
    private readonly log: (line: string) => void,
  ) {}

  async start(): Promise<void> {
    await this.beat();
    this.timer = setInterval(() => void this.beat(), HEARTBEAT_MS);
    this.timer.unref();
  }

  took(job: CurrentJob): void {
    this.current.set(job.job_id, job);
    void this.beat();
  }

  released(jobId: string): void {
    if (this.current.delete(jobId)) void this.beat();
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    await removeWorkerRecord(this.redis, this.base.queue, this.base.id).catch(() => undefined);
  }

  private async beat(): Promise<void> {
    try {
      await writeWorkerRecord(this.redis, {
        ...this.base,
        started_at: this.startedAt,
        heartbeat_at: Date.now(),
        current: [...this.current.values()],
      });
    } catch (err) {
      this.log(`heartbeat not written: ${(err as Error).message}`);
    }
  }
}
