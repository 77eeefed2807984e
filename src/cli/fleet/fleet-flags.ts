import { RecipeError } from '../../errors/index.js';
import { POSTGRES_ENV, REDIS_ENV, requireFleetStore, type FleetStore } from '../../fleet/fleet-store.js';
import { DEFAULT_QUEUE } from '../../fleet/job.js';

export { POSTGRES_ENV, REDIS_ENV };

/** The flags every fleet command shares. */
export interface FleetFlags {
  redis?: string;
  postgres?: string;
  queue?: string;
}

/** The fleet's lines in --help. */
export const FLEET_HELP = `  ${REDIS_ENV}          the fleet's Redis (redis://HOST:PORT) when no --redis/--postgres is given
  ${POSTGRES_ENV}       the fleet's PostgreSQL (postgres://USER:PASSWORD@HOST:PORT/DB) likewise
`;

/** The help text of --redis and --postgres on a command whose fleet store they name. */
export const STORE_OPTION_HELP = {
  redis: "the fleet's Redis, e.g. redis://127.0.0.1:6379 (else RECIPE_REDIS_URL)",
  postgres: "the fleet's PostgreSQL instead, e.g. postgres://recipe@127.0.0.1:5432/recipe (else RECIPE_POSTGRES_URL)",
} as const;

/**
 * The fleet's store (--redis or --postgres, else RECIPE_REDIS_URL or RECIPE_POSTGRES_URL: F009 when two are
 * given, F006 when none) and the queue name. Every fleet command opens its fleet from this.
 */
export function fleetStoreTarget(
  flags: FleetFlags,
  env: Readonly<Record<string, string | undefined>>,
): { store: FleetStore; queue: string } {
  const store = requireFleetStore(flags, env);
  return { store, queue: queueName(flags) };
}

function queueName(flags: FleetFlags): string {
  const queue = flags.queue ?? DEFAULT_QUEUE;
  if (!/^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/.test(queue))
    throw new RecipeError('F006', { flag: `--queue ${queue}`, reason: 'letters, digits, ".", "_" or "-"' });
  return queue;
}

/** A positive integer flag value (F006 otherwise). */
export function positiveInt(flag: string, text: string | undefined, fallback: number): number {
  if (text === undefined) return fallback;
  const n = Number(text);
  if (!Number.isInteger(n) || n < 1)
    throw new RecipeError('F006', { flag: `${flag} ${text}`, reason: 'a positive integer' });
  return n;
}
