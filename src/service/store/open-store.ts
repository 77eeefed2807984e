import type { Kysely } from 'kysely';
import { connectorTypes } from '../connectors/registry.js';
import type { Migration } from '../connectors/types.js';
import { contextStoreMigrations } from '../context-store/migrations.js';
import { idempotencyMigrations } from '../idempotency/idempotency-keys.js';
import { coreMigrations } from './core-migrations.js';
import { runMigrations } from './migrations.js';
import { openSqliteKysely } from './sqlite.js';
import type { Store } from './store.js';

export interface OpenStoreOptions {
  /** A file path, or ':memory:' for a private in-memory database. */
  path: string;
  /** Migrations beyond the core ones and the connector types' (e.g. the context store's). */
  migrations?: readonly Migration[];
}

/** Every migration the service knows: core, then each connector type's, then the extras (sorted by name when run). */
export function allMigrations(extra: readonly Migration[] = []): Migration[] {
  return [
    ...coreMigrations,
    ...connectorTypes.flatMap((t) => t.migrations ?? []),
    ...contextStoreMigrations,
    ...idempotencyMigrations,
    ...extra,
  ];
}

/** Opens (creating if needed) the service database and brings its schema up to date. */
export async function openStore(opts: OpenStoreOptions): Promise<Store> {
  const db = openSqliteKysely(opts.path);
  try {
    await runMigrations(db, allMigrations(opts.migrations));
  } catch (err) {
    await db.destroy();
    throw err;
  }
  let closed = false;
  return {
    dialect: 'sqlite',
    db,
    // Kysely's SQLite driver has one connection behind a mutex: inside fn use trx only, never store.db,
    // or the call waits for the transaction that is waiting for it.
    transaction<T>(fn: (trx: Kysely<any>) => Promise<T>): Promise<T> {
      return db.transaction().execute(fn);
    },
    async close() {
      if (closed) return;
      closed = true;
      await db.destroy();
    },
  };
}
