import type { FlowProducer, Job, Queue, Worker, WorkerOptions } from 'bullmq';
import type { Redis } from 'ioredis';
import type { RequestLimiter } from '../client/index.js';
import type { JournalStore } from '../journal/index.js';
import type { FleetStore } from './fleet-store.js';
import type { FleetRegistry } from './registry.js';

/**
 * A BullMQ queue on either backend: its public API, which BullMQ keeps the same on Redis and PostgreSQL
 * (the class's type parameters name the backend, so a Redis Queue and a PostgreSQL one are not one type).
 */
export type FleetQueue = Pick<
  Queue,
  | 'name'
  | 'add'
  | 'addBulk'
  | 'getJob'
  | 'getJobs'
  | 'getJobState'
  | 'getJobCounts'
  | 'getJobCountByTypes'
  | 'getWaiting'
  | 'getActive'
  | 'getDelayed'
  | 'getCompleted'
  | 'getFailed'
  | 'count'
  | 'remove'
  | 'pause'
  | 'resume'
  | 'isPaused'
  | 'getWorkers'
  | 'getWorkersCount'
  | 'upsertJobScheduler'
  | 'getJobScheduler'
  | 'getJobSchedulers'
  | 'removeJobScheduler'
  | 'waitUntilReady'
  | 'close'
>;

/** A BullMQ worker on either backend (its public API; see FleetQueue). */
export type FleetBullWorker = Pick<
  Worker,
  'name' | 'run' | 'close' | 'waitUntilReady' | 'cancelAllJobs' | 'cancelJob' | 'isRunning' | 'isPaused'
>;

/** What a worker's owner hears of it (its 'error', 'failed' and 'completed' events). */
export interface WorkerEvents {
  error?(err: Error): void;
  failed?(job: Job | undefined, err: Error): void;
  completed?(job: Job): void;
}

/** A flow producer on either backend (its public API; see FleetQueue). */
export type FleetFlowProducer = Pick<FlowProducer, 'add' | 'addBulk' | 'close' | 'waitUntilReady'>;

/** What a worker's processor is given. */
export type FleetProcessor = (job: Job, token?: string, signal?: AbortSignal) => Promise<unknown>;

/**
 * Small values with an expiry that the fleet's workers share beside the queue: a distributed foreach's visit,
 * its cancel flag and its chunks' "started" markers (src/fleet/distribute/visit-store.ts). Redis keys, or rows
 * of a table in PostgreSQL.
 */
export interface FleetKv {
  set(key: string, value: string, ttlS: number): Promise<void>;
  /** Sets the key only when it is absent (or expired): true when this call set it. */
  setIfAbsent(key: string, value: string, ttlS: number): Promise<boolean>;
  get(key: string): Promise<string | undefined>;
  exists(key: string): Promise<boolean>;
  del(keys: readonly string[]): Promise<void>;
}

/** What opening the fleet's journal needs. */
export interface FleetJournalOptions {
  readonly queue: string;
  readonly recipesDir?: string;
  readonly leaseMs?: number;
  readonly holderName?: string;
}

/** A worker of the queue and what closing it takes (its own connections go with it). */
export interface OpenedWorker {
  readonly worker: FleetBullWorker;
  close(): Promise<void>;
}

/**
 * The fleet's store, connected: everything in src/fleet/ that talks to the store goes through this, so that
 * the queue, the workers, the flows, the schedules, the visits, the journal and the rate limit live in the
 * one database the user named (--redis or --postgres) and nothing above knows which.
 */
export interface StoreConnections {
  readonly store: FleetStore;
  /** A queue handle (producers: submit, schedules, runs); closed by the caller. */
  newQueue(name: string): FleetQueue;
  /** A worker of the queue with a connection of its own (BullMQ blocks on it). */
  newWorker(
    name: string,
    processor: FleetProcessor,
    options: Omit<WorkerOptions, 'connection'>,
    events: WorkerEvents,
  ): OpenedWorker;
  /**
   * A flow producer (distributed foreach); closed by the caller. Its connection errors fail its calls (an
   * unheard 'error' event would end the worker).
   */
  newFlowProducer(): FleetFlowProducer;
  readonly kv: FleetKv;
  /** The worker registry and paused schedules (registry.ts), in the store. */
  readonly registry: FleetRegistry;
  /**
   * The command connection, on Redis only: for what is Redis's own (the worker's check of maxmemory-policy,
   * redis-settings.ts). Undefined on PostgreSQL.
   */
  readonly redis?: Redis;
  /** The run journal of a queue's runs, in the same store; closing it leaves these connections open. */
  openJournal(o: FleetJournalOptions): Promise<JournalStore>;
  /** A fleet-wide rate limit of maxRps requests per second per connector, kept in the store. */
  rateLimiter(maxRps: number): Promise<RequestLimiter>;
  close(): Promise<void>;
}
