import type { Kysely } from 'kysely';
import { findConnector } from './connectors.js';
import { databaseChangeToken } from './sqlite.js';
import type { CoreTables } from './tables.js';

type FoundConnector = NonNullable<Awaited<ReturnType<typeof findConnector>>>;

/** Entries kept at most; past this the cache starts over (a service has few connectors). */
const MAX_ENTRIES = 1000;

interface Cache {
  token: string;
  rows: Map<string, FoundConnector | null>;
}

const caches = new WeakMap<object, Cache>();

/**
 * findConnector for the execute path, remembered per organization and connector id while the
 * database is unchanged. Under load the lookup (a join of connectors and workspaces built by Kysely)
 * was ~12% of the service's CPU per execute. Any write anywhere in the database, by this process or
 * another, changes the database's change token and empties the cache, so a deleted connector or a
 * deactivated workspace is seen on the very next request. Not for use inside a transaction.
 */
export async function findConnectorCached(
  db: Kysely<CoreTables>,
  orgId: string,
  id: string,
): Promise<FoundConnector | undefined> {
  // The token is read before the query: a write that lands in between makes the next call read again.
  const token = databaseChangeToken(db);
  if (token === undefined) return findConnector(db, orgId, id);
  let cache = caches.get(db);
  if (!cache || cache.token !== token) {
    cache = { token, rows: new Map() };
    caches.set(db, cache);
  }
  const key = `${orgId}\u0000${id}`;
  const hit = cache.rows.get(key);
  if (hit !== undefined) return hit ?? undefined;
  const row = await findConnector(db, orgId, id);
  if (cache.rows.size >= MAX_ENTRIES) cache.rows.clear();
  cache.rows.set(key, row ? Object.freeze(row) : null);
  return row;
}
