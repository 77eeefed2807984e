import type { RunTracer } from '../telemetry/index.js';
import type { StoreConnections } from './store-connections.js';

/**
 * A worker's `recipe.queue.depth` gauge (docs/tracing.md#metrics): a queue handle of its own, read each time
 * metrics are exported (waiting counts prioritized jobs too, as `recipe fleet status` does). Every worker of a
 * queue reports the same depth: a dashboard takes the maximum over workers, not the sum. Undefined when the
 * worker sends no metrics; close() after the tracer's shutdown (its last export reads the queue once more).
 */
export function watchQueueDepth(
  connections: StoreConnections,
  queue: string,
  tracer: RunTracer | undefined,
): { close(): Promise<void> } | undefined {
  const fleet = tracer?.fleet;
  if (!fleet) return undefined;
  const handle = connections.newQueue(queue);
  fleet.observeQueue(queue, async () => {
    const c = await handle.getJobCounts('waiting', 'prioritized', 'active', 'delayed', 'failed');
    return {
      waiting: (c.waiting ?? 0) + (c.prioritized ?? 0),
      active: c.active ?? 0,
      delayed: c.delayed ?? 0,
      failed: c.failed ?? 0,
    };
  });
  return { close: () => handle.close() };
}
