import type { Kysely, Transaction } from 'kysely';
import type { CoreTables } from './tables.js';

/**
 * The storage interface every part of the service talks to. Queries go through Kysely so that the
 * same code serves SQLite now and PostgreSQL later; dialect-specific SQL (pragmas, FTS5, upserts that
 * differ) lives only in the dialect's files. `db` knows the core tables; a connector type or the context
 * store widens it to its own tables with `db.withTables<TheirTables>()`.
 */
export interface Store {
  readonly dialect: 'sqlite' | 'postgres';
  readonly db: Kysely<CoreTables>;
  /** Runs fn in one transaction: a failed write changes nothing. */
  transaction<T>(fn: (trx: Transaction<CoreTables>) => Promise<T>): Promise<T>;
  /**
   * A token that differs after any change to the database, by this process or another; undefined when
   * unknown (then do not cache). Lets callers cache reads and know cheaply when to read again.
   */
  changeToken(): string | undefined;
  close(): Promise<void>;
}

/** A value SQL hands to and takes from a function. */
export type SqlValue = string | number | bigint | Buffer | null;

/**
 * A scalar function a module adds to the store's SQL (as it adds tables with migrations): a connector type
 * whose indexes or queries need an exact rule that SQL has no word for (its own case folding, its token
 * rules). Deterministic functions may appear in indexes and triggers. The composition root gathers them and
 * the store registers them on its connection before the migrations run.
 */
export interface SqlFunction {
  readonly name: string;
  /** Same arguments, same answer (required for use in an index or a trigger). */
  readonly deterministic: boolean;
  readonly fn: (...args: SqlValue[]) => SqlValue;
}

/**
 * A migration a module contributes (the core tables, a connector type's, the context store's); the
 * composition root gathers them and the store runs them in name order, once each. `db` knows no tables:
 * a migration creates them through `db.schema`, and widens it with `withTables` to touch rows.
 */
export interface Migration {
  /** Sorts the migration among all others, e.g. "010-crm-records". */
  readonly name: string;
  up(db: Kysely<object>): Promise<void>;
}
