import type { ChunkStepStats } from '../../run/index.js';

/**
 * The data of a chunk job (name 'chunk'): a BullMQ flow child of the run's job. Small on purpose: the items
 * and variables are in the fleet's store once per visit (visit-store.ts), not in every chunk.
 */
export interface ChunkJobData {
  readonly run_id: string;
  /** The file the foreach is in, relative to the recipes directory ('/'-separated). */
  readonly file: string;
  /** Hex SHA-256 of that file on the worker that distributed: a worker whose copy differs refuses (F051). */
  readonly sha256: string;
  readonly step_path: string;
  /** The store key of the visit (DistributedForeach as JSON). */
  readonly visit: string;
  readonly chunk: number;
  /** Items start..end-1. */
  readonly start: number;
  readonly end: number;
}

/** True when `data` has the shape of a chunk job's data (it comes from the store: checked, not trusted). */
export function isChunkJobData(data: unknown): data is ChunkJobData {
  if (data === null || typeof data !== 'object') return false;
  const d = data as Record<string, unknown>;
  const str = (k: string): boolean => typeof d[k] === 'string' && d[k] !== '';
  const int = (k: string): boolean => Number.isInteger(d[k]) && (d[k] as number) >= 0;
  return (
    str('run_id') &&
    str('file') &&
    str('sha256') &&
    str('step_path') &&
    str('visit') &&
    int('chunk') &&
    int('start') &&
    int('end') &&
    (d.end as number) > (d.start as number)
  );
}

/** What a chunk job returns (its BullMQ return value, kept in the parent's processed children). */
export interface ChunkJobResult {
  readonly chunk: number;
  readonly start: number;
  /** Each item's result (masked), in item order. */
  readonly results: unknown[];
  readonly requests: number;
  readonly retries: number;
  readonly writes: number;
  /** What each step inside the loop did (run/distribute-stats.ts). */
  readonly steps?: readonly ChunkStepStats[];
  /** The worker that ran it (host:pid), for `recipe fleet status`. */
  readonly worker?: string;
}
