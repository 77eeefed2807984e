import type { Job } from 'bullmq';
import type { StoreConnections } from '../store-connections.js';

/** What a worker lends a run that waits for its distributed chunks. */
export interface SpareSlots {
  /** Starts taking one more job; the function returned gives the slot back. */
  lend(): () => void;
  /** Closes every lent slot (the worker is shutting down): their jobs in hand end first. */
  close(): Promise<void>;
}

/** How a worker's spare slots take jobs: the same queue and processor, connections of their own. */
export interface SpareSlotOptions {
  readonly queue: string;
  /** The fleet's store: each lent slot is a worker with a connection of its own. */
  readonly connections: Pick<StoreConnections, 'newWorker'>;
  process(job: Job, token: string | undefined, signal: AbortSignal | undefined): Promise<unknown>;
  readonly lockMs: number;
  readonly log?: (line: string) => void;
}

/**
 * A run that waits for its chunks would hold its worker's slot idle, and a fleet of one worker with one slot
 * would wait for ever: so while it waits, the worker takes one more job, any job (most likely one of the
 * run's own chunks), through a BullMQ worker of one slot on the same queue. BullMQ's own concurrency cannot
 * be raised while its slots are busy (its loop waits for a job to end), hence a worker of its own per lend.
 */
export function spareSlots(o: SpareSlotOptions): SpareSlots {
  const open = new Set<Promise<void>>();
  return {
    lend() {
      const worker = o.connections.newWorker(
        o.queue,
        (job, token, signal) => o.process(job, token, signal),
        { concurrency: 1, lockDuration: o.lockMs, stalledInterval: o.lockMs, maxStalledCount: 2 },
        {
          error: (err) => o.log?.(`queue error (lent slot): ${err.message}`),
          failed: (job, err) => {
            if (job) o.log?.(`job ${job.id} failed: ${err.message}`);
          },
          completed: (job) => o.log?.(`job ${job.id} completed`),
        },
      );
      let given = false;
      return () => {
        if (given) return;
        given = true;
        // The job in hand, if any, ends first; the waiting run does not wait for it.
        const closed = worker.close().then(
          () => undefined,
          () => undefined,
        );
        open.add(closed);
        void closed.finally(() => open.delete(closed));
      };
    },
    async close() {
      await Promise.all([...open]);
    },
  };
}
