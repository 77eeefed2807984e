/**
 * The fleet's registry: what the workers and the schedule commands keep beside the queue and the journal, for
 * `recipe fleet status`, `recipe schedule pause|resume` and the console. One interface, one implementation per
 * store (redis-registry.ts, postgres-registry.ts), chosen when the store is connected (StoreConnections), so
 * that its callers (workers.ts, schedules.ts, status.ts) never ask which store they are on.
 *
 * Live workers: each worker writes a small record with an expiry and renews it every HEARTBEAT_MS; a worker
 * that died (SIGKILL, a lost machine) stops renewing and drops out of the listing within WORKER_TTL_MS without
 * anyone cleaning up. The expiry is the store's clock (a Redis key's PX, PostgreSQL's now()), so workers whose
 * clocks disagree still agree on who is live.
 */

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

export interface FleetRegistry {
  /** Writes (or renews) a worker's record, live for WORKER_TTL_MS from now on the store's clock. */
  writeWorker(record: WorkerRecord): Promise<void>;
  /** Removes a worker's record (it stopped cleanly). */
  removeWorker(queue: string, id: string): Promise<void>;
  /** The live workers of a queue, by id (records run out are dropped on the way). */
  listWorkers(queue: string): Promise<WorkerRecord[]>;
  /**
   * Keeps a paused schedule aside (BullMQ has no paused job scheduler): `paused` is its JSON, which only
   * schedules.ts reads. Replaces one of that name.
   */
  pause(queue: string, name: string, paused: string): Promise<void>;
  /** Forgets a paused schedule: true when there was one. */
  unpause(queue: string, name: string): Promise<boolean>;
  /** The paused schedules of a queue: name → the JSON given to pause. */
  listPaused(queue: string): Promise<ReadonlyMap<string, string>>;
}
