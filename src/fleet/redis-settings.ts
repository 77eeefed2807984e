import type { Redis } from 'ioredis';
import { RecipeError } from '../errors/index.js';

/**
 * The Redis settings the fleet depends on, checked by each worker at start. BullMQ and the journal keep
 * state that must never be evicted: under any maxmemory-policy other than noeviction, a full Redis would
 * silently drop a job, a lease or a journal record (a run resumed from a journal with holes could send a
 * write again). Managed Redis services often refuse CONFIG GET: then the worker warns and goes on.
 */

/** What the check found: the policy, or why it could not be read. */
export type MaxmemoryCheck = { readonly policy: string } | { readonly unreadable: string };

/** F020 when the policy is readable and not noeviction; otherwise what was found. */
export async function checkMaxmemoryPolicy(redis: Redis): Promise<MaxmemoryCheck> {
  let answer: unknown;
  try {
    answer = await redis.call('CONFIG', 'GET', 'maxmemory-policy');
  } catch (err) {
    return { unreadable: (err as Error).message };
  }
  const policy = Array.isArray(answer) && typeof answer[1] === 'string' ? answer[1] : undefined;
  if (policy === undefined) return { unreadable: 'CONFIG GET maxmemory-policy gave no value' };
  if (policy !== 'noeviction') throw new RecipeError('F020', { policy });
  return { policy };
}
