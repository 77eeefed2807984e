/**
 * fleet/distribute/: distributed foreach on BullMQ flows. A worker sets createDistributor(...) on the run
 * context of each run it runs (RunOptions.distributor), and dispatches jobs named 'chunk' to processChunkJob.
 */
export { createDistributor, type DistributorOptions } from './distributor.js';
export { processChunkJob, type ChunkWorkerDeps, type PartJournalStore } from './chunk-job.js';
export { isChunkJobData, type ChunkJobData, type ChunkJobResult } from './chunk-data.js';
export { DISTRIBUTE_PREFIX } from './visit-store.js';
export { spareSlots, type SpareSlotOptions, type SpareSlots } from './spare-slots.js';
export { distributorForRunJob, processChunkForWorker } from './worker-hooks.js';
