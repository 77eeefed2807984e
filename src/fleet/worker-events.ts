import type { IQueueBackend, Job, Worker } from 'bullmq';
import type { WorkerEvents } from './store-connections.js';

/** The minimal event surface of a BullMQ worker on any backend. */
interface Emitter {
  on(event: 'error', listener: (err: Error) => void): unknown;
  on(event: 'failed', listener: (job: Job | undefined, err: Error) => void): unknown;
  on(event: 'completed', listener: (job: Job) => void): unknown;
}

/** Wires a worker's events to its owner; 'error' always has a listener (else Node would end the process). */
export function listen<B extends IQueueBackend, C>(
  worker: Worker<unknown, unknown, string, B, never, C> | Emitter,
  events: WorkerEvents,
): void {
  const emitter = worker as Emitter;
  emitter.on('error', (err) => events.error?.(err));
  if (events.failed) emitter.on('failed', (job, err) => events.failed?.(job, err));
  if (events.completed) emitter.on('completed', (job) => events.completed?.(job));
}
