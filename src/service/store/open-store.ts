import type { Kysely, Transaction } from 'kysely';
import type { Migration, SqlFunction, Store } from '../core/store.js';
import type { CoreTables } from '../core/tables.js';
import { runMigrations } from './migrations.js';
import { openSqlite } from './sqlite.js';

export interface OpenStoreOptions {
  /** A file path, or ':memory:' for a private in-memory database. */
  path: string;
  /** Every migration of the service (the composition root gathers them: core, connector types, context store). */
  migrations: readonly Migration[];
  /** SQL functions the migrations and queries use, registered before the migrations run. */
  functions?: readonly SqlFunction[];
}

/** Opens (creating if needed) the service database and brings its schema up to date with the given migrations. */
export async function openStore(opts: OpenStoreOptions): Promise<Store> {
  const { db: raw, changeToken } = openSqlite(opts.path, opts.functions);
  try {
    await runMigrations(raw, opts.migrations);
  } catch (err) {
    await raw.destroy();
    throw err;
  }
  const db: Kysely<CoreTables> = raw.withTables<CoreTables>();
  let closed = false;
  return {
    dialect: 'sqlite',
    db,
    // Kysely's SQLite driver has one connection behind a mutex: inside fn use trx only, never store.db,
    // or the call waits for the transaction that is waiting for it.
    transaction<T>(fn: (trx: Transaction<CoreTables>) => Promise<T>): Promise<T> {
      return db.transaction().execute(fn);
    },
    changeToken,
    async close() {
      if (closed) return;
      closed = true;
      await raw.destroy();
    },
  };
}
