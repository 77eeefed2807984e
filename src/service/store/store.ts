import type { Kysely } from 'kysely';

/**
 * The storage interface every part of the service talks to. Queries go through Kysely so that the
 * same code serves SQLite now and PostgreSQL later; dialect-specific SQL (pragmas, FTS5, upserts that
 * differ) lives only in the dialect's file (store/sqlite.ts).
 */
export interface Store {
  readonly dialect: 'sqlite' | 'postgres';
  /** Tables are declared by the module that owns them; callers narrow with `store.db as Kysely<TheirTables>`. */
  readonly db: Kysely<any>;
  /** Runs fn in one transaction: a failed write changes nothing. */
  transaction<T>(fn: (trx: Kysely<any>) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}
