import { parentPort, workerData } from 'node:worker_threads';
import type { ConnectionConfig } from '../client/index.js';
import { Executor, type WorkUnit } from './executor.js';
import { loadTestFile } from './load-test-file.js';
import { catalogForService } from '../catalog/service-catalog.js';
import type { CaseResult } from './results.js';
import type { TestFile } from './test-file.js';

/** What a worker thread is started with. */
export interface WorkerSetup {
  readonly tmp: string;
  readonly initialTemplate: string;
  readonly update: boolean;
  readonly recording: boolean;
  readonly live?: ConnectionConfig;
  readonly allowNetwork: boolean;
}

/** Messages from the pool to a worker, and back. */
export type ToWorker = { readonly kind: 'unit'; readonly unit: WorkUnit } | { readonly kind: 'close' };
export type FromWorker =
  { readonly kind: 'results'; readonly unit: WorkUnit; readonly results: CaseResult[] } | { readonly kind: 'closed' };

/**
 * A worker thread of `recipe test --jobs N`: one embedded service of its own, running the work units it is
 * sent one at a time. Test files are loaded here again (plans hold compiled expressions, which do not cross
 * threads); templates are the files the main thread built.
 */
const setup = workerData as WorkerSetup;
const executor = new Executor({
  tmp: setup.tmp,
  initialTemplate: () => Promise.resolve(setup.initialTemplate),
  update: setup.update,
  allowNetwork: setup.allowNetwork,
  ...(setup.live ? { live: setup.live } : {}),
});
const files = new Map<string, Promise<TestFile | undefined>>();

function fileAt(path: string): Promise<TestFile | undefined> {
  let file = files.get(path);
  if (!file) {
    // The embedded types, or with --record the live service's catalog (catalogForService).
    file = catalogForService(setup.live?.baseUrl)
      .then((catalog) => loadTestFile(path, { recording: setup.recording, ...(catalog ? { catalog } : {}) }))
      .then((l) => l.file);
    files.set(path, file);
  }
  return file;
}

parentPort?.on('message', (message: ToWorker) => {
  void (async () => {
    if (message.kind === 'close') {
      await executor.close();
      parentPort?.postMessage({ kind: 'closed' } satisfies FromWorker);
      return;
    }
    const file = await fileAt(message.unit.file);
    const results = file ? await executor.run(message.unit, file) : [];
    parentPort?.postMessage({ kind: 'results', unit: message.unit, results } satisfies FromWorker);
  })();
});
