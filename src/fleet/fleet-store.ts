import { RecipeError } from '../errors/index.js';

/**
 * The fleet's store: the one database that holds a fleet's queue (BullMQ), its schedules, its distributed
 * foreach visits and its run journal. Redis (`--redis`, RECIPE_REDIS_URL) or PostgreSQL (`--postgres`,
 * RECIPE_POSTGRES_URL); docs/fleet.md says which to choose. Parsed once from the flags and the environment
 * (fleetStoreFrom), then handed whole to whatever opens the fleet (openFleet, startFleetWorker, ...).
 */
export type FleetStore =
  { readonly kind: 'redis'; readonly url: string } | { readonly kind: 'postgres'; readonly url: string };

/** The environment variables that name the fleet's store when no flag does. */
export const REDIS_ENV = 'RECIPE_REDIS_URL';
export const POSTGRES_ENV = 'RECIPE_POSTGRES_URL';

/** The flags that name the store: every fleet command accepts both. */
export interface FleetStoreFlags {
  readonly redis?: string;
  readonly postgres?: string;
}

/**
 * The store the flags name, else the environment's: F009 when both flags are given (or, with no flag, both
 * variables are set), F006 when the one given is not a URL of its kind. Undefined when nothing names one
 * (a command for which the fleet is optional decides what that means; requireFleetStore refuses it).
 */
export function fleetStoreFrom(
  flags: FleetStoreFlags,
  env: Readonly<Record<string, string | undefined>>,
): FleetStore | undefined {
  if (flags.redis !== undefined && flags.postgres !== undefined)
    throw new RecipeError('F009', { given: '--redis and --postgres' });
  if (flags.redis !== undefined) return checkedStore('redis', flags.redis);
  if (flags.postgres !== undefined) return checkedStore('postgres', flags.postgres);
  const redis = env[REDIS_ENV] || undefined;
  const postgres = env[POSTGRES_ENV] || undefined;
  if (redis !== undefined && postgres !== undefined)
    throw new RecipeError('F009', { given: `${REDIS_ENV} and ${POSTGRES_ENV} (and neither --redis nor --postgres)` });
  if (redis !== undefined) return checkedStore('redis', redis);
  if (postgres !== undefined) return checkedStore('postgres', postgres);
  return undefined;
}

/** fleetStoreFrom, F006 when nothing names a store (the code `--redis` alone gave before --postgres). */
export function requireFleetStore(
  flags: FleetStoreFlags,
  env: Readonly<Record<string, string | undefined>>,
): FleetStore {
  const store = fleetStoreFrom(flags, env);
  if (!store)
    throw new RecipeError('F006', {
      flag: '--redis or --postgres',
      reason: `name the fleet's store (or set ${REDIS_ENV} or ${POSTGRES_ENV})`,
    });
  return store;
}

/** A store of a known kind whose URL is checked (F006 when it is not a URL of that kind). */
export function checkedStore(kind: FleetStore['kind'], url: string): FleetStore {
  if (kind === 'redis') {
    checkUrl(url, '--redis', ['redis:', 'rediss:'], 'redis://HOST:PORT');
    return { kind, url };
  }
  checkUrl(url, '--postgres', ['postgres:', 'postgresql:'], 'postgres://USER:PASSWORD@HOST:PORT/DATABASE');
  return { kind, url };
}

function checkUrl(url: string, flag: string, protocols: readonly string[], example: string): URL {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new RecipeError('F006', { flag, reason: `"${redactUrl(url)}" is not a URL (${example})` });
  }
  if (!protocols.includes(parsed.protocol))
    throw new RecipeError('F006', { flag, reason: `"${redactUrl(url)}" is not a ${protocols[0]}// URL (${example})` });
  return parsed;
}

/** The URL without its password, for messages and logs. */
export function redactUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.href;
  } catch {
    return '(invalid URL)';
  }
}

/** The store as messages name it: `redis redis://127.0.0.1:6379/` or `postgres postgres://u:***@host/db`. */
export function describeStore(store: FleetStore): string {
  return `${store.kind === 'redis' ? 'Redis' : 'PostgreSQL'} ${redactUrl(store.url)}`;
}
