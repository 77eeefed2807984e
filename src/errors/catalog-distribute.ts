import type { CatalogEntry } from './types.js';

/**
 * F050–F099: distributed foreach and fleet-wide rate limits (src/fleet/distribute/, src/fleet/rate-limit/),
 * in their own file beside catalog-fleet.ts so that the two parts of the fleet do not edit one list.
 */
export const distributeCodes = {
  F050: { template: 'chunk {chunk} of {stepPath} (run {runId}) failed: {reason}', class: 'run' },
  F051: {
    template:
      "this worker's copy of {file} differs from the one the run distributed (sha256 {actual}, the chunk has {expected}); deploy the same recipes to every worker",
    class: 'invalid',
  },
  F052: { template: 'chunk job {jobId} cannot be run: {reason}', class: 'invalid' },
  F053: {
    template: 'chunk {chunk} of {stepPath} (run {runId}) was cancelled: another chunk of it failed',
    class: 'interrupted',
  },
  F054: { template: '--max-rps-per-connector: {reason}', class: 'invalid' },
} satisfies Record<string, CatalogEntry>;
