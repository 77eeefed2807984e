import { existsSync, mkdtempSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { WorkUnit } from './executor.js';
import type { CaseResult } from './results.js';
import type { FromWorker, ToWorker, WorkerSetup } from './worker.js';

// Through ../test-runner/, so that the CLI's bundle (dist/bin/) starts the compiled worker too.
const WORKER = new URL('../test-runner/worker.js', import.meta.url);

/** True where worker threads can run (built JavaScript; not when the runner runs from TypeScript sources). */
export function canUseWorkers(): boolean {
  return existsSync(fileURLToPath(WORKER));
}

/**
 * Runs work units in `jobs` worker threads, each with its own embedded service, handing the next unit to
 * whichever is free; `onUnit` hears each unit's results as they come.
 */
export async function runInWorkers(
  units: readonly WorkUnit[],
  jobs: number,
  setup: Omit<WorkerSetup, 'tmp'> & { readonly tmp: string },
  onUnit: (unit: WorkUnit, results: CaseResult[]) => void,
): Promise<void> {
  const queue = [...units];
  const count = Math.max(1, Math.min(jobs, queue.length));
  await Promise.all(
    Array.from({ length: count }, (_, i) => {
      const tmp = mkdtempSync(path.join(setup.tmp, `worker-${i}-`));
      const worker = new Worker(WORKER, { workerData: { ...setup, tmp } satisfies WorkerSetup });
      const send = (m: ToWorker) => worker.postMessage(m);
      return new Promise<void>((resolve, reject) => {
        const next = () => {
          const unit = queue.shift();
          send(unit ? { kind: 'unit', unit } : { kind: 'close' });
        };
        worker.on('message', (m: FromWorker) => {
          if (m.kind === 'results') {
            onUnit(m.unit, m.results);
            next();
          } else void worker.terminate().then(() => resolve());
        });
        worker.on('error', reject);
        worker.on('exit', (code) =>
          code === 0 || code === 1 ? resolve() : reject(new Error(`worker exited ${code}`)),
        );
        next();
      });
    }),
  );
}
