import { RecipeError } from '../../errors/index.js';
import { DEFAULT_QUEUE } from '../../fleet/job.js';

/** The flags every fleet command shares. */
export interface FleetFlags {
  redis?: string;
  queue?: string;
}

/** The environment variable that names the fleet's Redis when --redis does not. */
export const REDIS_ENV = 'RECIPE_REDIS_URL';

/** The fleet's lines in --help. */
export const FLEET_HELP = `  ${REDIS_ENV}          the fleet's Redis (redis://HOST:PORT) when --redis is not given
`;

/** --redis, else RECIPE_REDIS_URL (F006 when neither), and the queue name. */
export function fleetTarget(
  flags: FleetFlags,
  env: Readonly<Record<string, string | undefined>>,
): { redisUrl: string; queue: string } {
  const redisUrl = flags.redis ?? (env[REDIS_ENV] || undefined);
  if (redisUrl === undefined)
    throw new RecipeError('F006', { flag: '--redis', reason: `name the fleet's Redis (or set ${REDIS_ENV})` });
  const queue = flags.queue ?? DEFAULT_QUEUE;
  if (!/^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/.test(queue))
    throw new RecipeError('F006', { flag: `--queue ${queue}`, reason: 'letters, digits, ".", "_" or "-"' });
  return { redisUrl, queue };
}

/** A positive integer flag value (F006 otherwise). */
export function positiveInt(flag: string, text: string | undefined, fallback: number): number {
  if (text === undefined) return fallback;
  const n = Number(text);
  if (!Number.isInteger(n) || n < 1)
    throw new RecipeError('F006', { flag: `${flag} ${text}`, reason: 'a positive integer' });
  return n;
}
