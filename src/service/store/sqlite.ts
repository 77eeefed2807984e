import Database from 'better-sqlite3';
import { Kysely, SqliteDialect } from 'kysely';

/** How long a writer waits for a lock held by another connection before SQLITE_BUSY. */
const BUSY_TIMEOUT_MS = 5000;

/**
 * Opens a SQLite database with the service's pragmas and wraps it in Kysely. The only place that knows
 * SQLite-specific settings; a PostgreSQL store would get its own file next to this one.
 */
export function openSqliteKysely(path: string): Kysely<any> {
  const raw = new Database(path);
  // WAL lets readers go on while one writer writes; :memory: databases silently stay in "memory" mode.
  raw.pragma('journal_mode = WAL');
  raw.pragma('foreign_keys = ON');
  raw.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
  raw.pragma('synchronous = NORMAL');
  return new Kysely<any>({ dialect: new SqliteDialect({ database: raw }) });
}
