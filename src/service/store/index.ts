/** The service's storage: open a store, and the shapes of its core tables. */
export { openStore, allMigrations, type OpenStoreOptions } from './open-store.js';
export type { Store } from './store.js';
export type { CoreTables, WorkspaceRow, ConnectorRow } from './tables.js';
