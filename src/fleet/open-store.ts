import type { FleetStore } from './fleet-store.js';
import type { StoreConnections } from './store-connections.js';

/**
 * Connects to the fleet's store: F001 when Redis cannot be reached, F010 when PostgreSQL cannot. The backend
 * of the other kind is not loaded.
 */
export async function connectStore(store: FleetStore): Promise<StoreConnections> {
  if (store.kind === 'redis') return (await import('./redis.js')).connectRedisStore(store.url);
  return (await import('./postgres.js')).connectPostgresStore(store.url);
}
