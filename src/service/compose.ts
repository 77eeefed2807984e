import { connectorTypes as registryTypes } from './connectors/registry.js';
import type { ConnectorType } from './core/connector-type.js';
import type { Migration, Store } from './core/store.js';
import { contextStoreMigrations } from './context-store/index.js';
import { idempotencyMigrations } from './idempotency/idempotency-keys.js';
import { coreMigrations } from './store/core-migrations.js';
import { openStore } from './store/open-store.js';

/** The connector types a service offers unless told otherwise: the registry's. */
export const defaultConnectorTypes: readonly ConnectorType[] = registryTypes;

/**
 * Every migration of a service offering these connector types: the core tables, each type's own, the
 * context store's, the idempotency keys', then the extras (the store sorts them by name when it runs them).
 */
export function serviceMigrations(
  types: readonly ConnectorType[] = defaultConnectorTypes,
  extra: readonly Migration[] = [],
): Migration[] {
  return [
    ...coreMigrations,
    ...types.flatMap((t) => t.migrations ?? []),
    ...contextStoreMigrations,
    ...idempotencyMigrations,
    ...extra,
  ];
}

export interface OpenServiceStoreOptions {
  /** A file path, or ':memory:' for a private in-memory database. */
  path: string;
  /** Migrations beyond the core, connector types' and context store's ones. */
  migrations?: readonly Migration[];
  /** Connector types offered besides the registry's (their migrations run too). */
  connectorTypes?: readonly ConnectorType[];
}

/**
 * Opens the service database with every migration the service needs: the registry's connector types
 * (their tables exist even when a test offers other types) plus the extras.
 */
export async function openServiceStore(opts: OpenServiceStoreOptions): Promise<Store> {
  const types = [...new Set([...defaultConnectorTypes, ...(opts.connectorTypes ?? [])])];
  return openStore({
    path: opts.path,
    migrations: serviceMigrations(types, opts.migrations),
    functions: types.flatMap((t) => t.sqlFunctions ?? []),
  });
}
