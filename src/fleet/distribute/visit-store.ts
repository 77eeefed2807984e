import { createHash } from 'node:crypto';
import type { FleetKv } from '../store-connections.js';
import type { DistributedForeach } from '../../run/index.js';

/** Where distributed visits live in the store (a key prefix) unless told otherwise. */
export const DISTRIBUTE_PREFIX = 'recipe:distribute';

/** A visit's description stays this long at most (the run deletes it once its chunks are in). */
const VISIT_TTL_S = 7 * 24 * 3600;

/**
 * The keys of one distributed foreach visit in the fleet's store (FleetKv): the visit (items and variables, once, not per chunk),
 * the cancel flag (a chunk failed for good: the others stop) and one "started" marker per chunk (a chunk that
 * finds its marker set runs again after a crash or a failure: it asks the journal before sending anything).
 */
export class VisitKeys {
  readonly base: string;

  constructor(prefix: string, runId: string, stepPath: string) {
    this.base = `${prefix}:${runId}:${visitHash(stepPath)}`;
  }

  get visit(): string {
    return `${this.base}:visit`;
  }

  get cancel(): string {
    return `${this.base}:cancel`;
  }

  started(chunk: number): string {
    return `${this.base}:started:${chunk}`;
  }
}

/** A short, stable name for a step path (which holds dots and brackets): in job ids and keys. */
export function visitHash(stepPath: string): string {
  return createHash('sha1').update(stepPath).digest('hex').slice(0, 16);
}

export async function saveVisit(kv: FleetKv, key: string, visit: DistributedForeach): Promise<void> {
  await kv.set(key, JSON.stringify(visit), VISIT_TTL_S);
}

/** The visit a chunk belongs to; undefined once its run is done with it. */
export async function loadVisit(kv: FleetKv, key: string): Promise<DistributedForeach | undefined> {
  const text = await kv.get(key);
  return text === undefined ? undefined : (JSON.parse(text) as DistributedForeach);
}

/** Forgets a visit (its run is done with it). */
export async function dropVisit(kv: FleetKv, keys: VisitKeys, chunks: number): Promise<void> {
  const started = Array.from({ length: chunks }, (_, i) => keys.started(i));
  await kv.del([keys.visit, keys.cancel, ...started]);
}

/** The journal part a chunk holds (chunk-job.ts), marked folded once the run gathered it (distributor.ts). */
export function partName(stepPath: string, chunk: number): string {
  return `chunk-${visitHash(stepPath)}-${chunk}`;
}
