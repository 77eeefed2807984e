import type { JournalStore } from '../journal/index.js';

/** How often a worker prunes the fleet's journal again after its start. */
export const RETENTION_EVERY_MS = 10 * 60_000;
/** Runs pruned per call (as `recipe run --retain` does at each start), and calls per round at most. */
const BATCH = 200;
const BATCHES_PER_ROUND = 50;

/**
 * `recipe worker --retain` (or RECIPE_RETAIN): runs of the fleet's journal that ended longer ago than
 * `retainMs` are pruned at the worker's start and every RETENTION_EVERY_MS after, in batches (a held run is
 * never pruned). Several workers may prune at once: a run is removed once, whoever removes it. Undefined when
 * there is no retention; stop() when the worker stops.
 */
export function keepRetention(
  journal: JournalStore,
  retainMs: number | undefined,
  log: (line: string) => void,
): { stop(): void } | undefined {
  if (retainMs === undefined || retainMs <= 0) return undefined;
  const round = async (): Promise<void> => {
    let pruned = 0;
    for (let i = 0; i < BATCHES_PER_ROUND; i++) {
      const n = await journal.prune(Date.now() - retainMs, BATCH);
      pruned += n;
      if (n < BATCH) break;
    }
    if (pruned > 0) log(`retention: pruned ${pruned} run${pruned === 1 ? '' : 's'} that ended over ${retainMs} ms ago`);
  };
  const run = (): void => {
    round().catch((err: unknown) => log(`retention: prune failed: ${(err as Error).message}`));
  };
  run();
  const timer = setInterval(run, RETENTION_EVERY_MS);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}
