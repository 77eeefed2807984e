import type { CatalogEntry } from './types.js';

/**
 * F: the fleet (queue, workers, submit, schedules). Owned by src/fleet/. F001–F049: queue, workers, submit
 * and schedules; F050–F099 are kept for distributed foreach and fleet-wide rate limits.
 */
export const fleetCodes = {
  F001: { template: 'cannot reach Redis at {url}: {reason}', class: 'config' },
  F002: {
    template:
      '{file} is not inside the recipes directory {dir}: workers find a recipe by its path under it (--recipes)',
    class: 'invalid',
  },
  F003: {
    template:
      "this worker's copy of {file} differs from the one submitted (sha256 {actual}, job has {expected}); deploy the same recipes to every worker, or submit again",
    class: 'invalid',
  },
  F004: { template: 'job {jobId} cannot be run: {reason}', class: 'invalid' },
  F005: { template: 'no schedule named "{name}" on queue {queue}', class: 'invalid' },
  F006: { template: '{flag}: {reason}', class: 'invalid' },
  F007: { template: 'run {runId} is not in queue {queue} (nor in its journal)', class: 'invalid' },
  F008: { template: 'run {runId} was not finished by a worker: {reason}', class: 'run' },
  F009: {
    template: '{given} both name a fleet store: give one, --redis URL or --postgres URL (docs/fleet.md)',
    class: 'invalid',
  },
  F010: { template: 'cannot reach PostgreSQL at {url}: {reason}', class: 'config' },
  // F012 (a registry feature refused on PostgreSQL) is retired: issue 27 gave PostgreSQL the worker registry,
  // paused schedules and `fleet status`. Not to be reused.
  F011: { template: "the fleet's schema in PostgreSQL at {url} cannot be used: {reason}", class: 'config' },
  F020: {
    template:
      "Redis maxmemory-policy is {policy}: a full Redis would evict the fleet's jobs and journal; set maxmemory-policy noeviction (docs/fleet.md#redis-in-production)",
    class: 'config',
  },
  F021: {
    template:
      "the recipe {file} is missing on this worker (recipes folder {dir}): deploy it to every worker's --recipes folder, or submit again",
    class: 'invalid',
  },
  F022: { template: 'run {runId} cannot be redriven on the fleet: {reason}', class: 'invalid' },
  F023: { template: 'schedule "{name}" on queue {queue} is {state}', class: 'invalid' },
} satisfies Record<string, CatalogEntry>;
