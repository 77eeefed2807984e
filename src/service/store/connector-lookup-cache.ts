import type { Store } from '../core/store.js';
import { findConnector } from './connectors.js';

type FoundConnector = NonNullable<Awaited<ReturnType<typeof findConnector>>>;

/** Entries kept at most; past this the cache starts over (a service has few connectors). */
const MAX_ENTRIES = 1000;

/** findConnector for the execute path, remembered while the database is unchanged (see createConnectorLookup). */
export type ConnectorLookup = (orgId: string, id: string) => Promise<FoundConnector | undefined>;

/**
 * findConnector for the execute path, remembered per organization and connector id while the
 * database is unchanged. Under load the lookup (a join of connectors and workspaces built by Kysely)
 * was ~12% of the service's CPU per execute. Any write anywhere in the database, by this process or
 * another, changes the store's change token and empties the cache, so a deleted connector or a
 * deactivated workspace is seen on the very next request. Not for use inside a transaction.
 */
export function createConnectorLookup(store: Store): ConnectorLookup {
  let token: string | undefined;
  let rows = new Map<string, FoundConnector | null>();
  return async (orgId, id) => {
    // The token is read before the query: a write that lands in between makes the next call read again.
    const now = store.changeToken();
    if (now === undefined) return findConnector(store.db, orgId, id);
    if (now !== token) {
      token = now;
      rows = new Map();
    }
    const key = `${orgId}\u0000${id}`;
    const hit = rows.get(key);
    if (hit !== undefined) return hit ?? undefined;
    const row = await findConnector(store.db, orgId, id);
    if (rows.size >= MAX_ENTRIES) rows.clear();
    rows.set(key, row ? Object.freeze(row) : null);
    return row;
  };
}
