import type Database from 'better-sqlite3';
import { Kysely, SqliteDialect } from 'kysely';
import { openSqliteDatabase } from '../../sqlite/open-database.js';
import type { SqlFunction } from '../core/store.js';

/** An open SQLite database: the Kysely handle (no tables known yet) and its change token. */
export interface SqliteHandle {
  readonly db: Kysely<object>;
  /** See Store.changeToken. */
  changeToken(): string | undefined;
}

/**
 * The page size of a new service database. The context store's value index takes random keys (emails, names)
 * in every build step, and with pages of 16 KiB an index build of 100,000 contacts took 0.87–0.89 × the CPU
 * time and wall time it took with SQLite's default 4 KiB (3 alternating pairs, bench/README.md). Databases made
 * with another size keep it.
 */
const SERVICE_PAGE_SIZE = 16_384;
/** Pages in the write-ahead log that start a checkpoint (see openSqlite). */
const WAL_CHECKPOINT_PAGES = 8192;

/**
 * Opens a SQLite database with the service's pragmas and wraps it in Kysely. The only place that knows
 * SQLite-specific settings; a PostgreSQL store would get its own file next to this one.
 */
export function openSqlite(path: string, functions: readonly SqlFunction[] = []): SqliteHandle {
  // The house pragmas and busy timeout (src/sqlite/), shared with the run journal.
  const raw = openSqliteDatabase(path, { pageSize: SERVICE_PAGE_SIZE });
  for (const f of functions) raw.function(f.name, { deterministic: f.deterministic, varargs: true }, f.fn);
  // The service's own: its tables delete a connector's rows by ON DELETE CASCADE (the journal has no foreign keys).
  raw.pragma('foreign_keys = ON');
  // Checkpoints once the log holds 8,192 pages (128 MiB) rather than SQLite's 1,000: an index build step
  // rewrites most of the value index, so a checkpoint after every step copied (and fsynced) those pages once
  // per step; one every few steps copies each page once. The commits of a 100,000-contact build went from
  // 1.6–1.8 s to 0.9–1.1 s. The log file is cut back to 64 MiB after a checkpoint, so an idle service does
  // not keep a build's worth of it on disk.
  raw.pragma(`wal_autocheckpoint = ${WAL_CHECKPOINT_PAGES}`);
  raw.pragma(`journal_size_limit = ${64 * 1024 * 1024}`);
  const db = new Kysely<object>({ dialect: new SqliteDialect({ database: withStatementCache(raw) }) });
  return { db, changeToken: changeTokenReader(raw) };
}

/** Statements kept per database; SQL longer than this is prepared each time (large multi-row inserts). */
const CACHE_SIZE = 256;
const CACHE_MAX_SQL = 4096;

/**
 * Kysely prepares every query anew, and preparing was the largest single cost of a small request (a
 * profile of execute get under load: 17% of the service's CPU in prepare). Reuses prepared statements
 * by SQL text (least recently used out first); a statement still iterating is never handed out twice.
 */
function withStatementCache(raw: Database.Database): Pick<Database.Database, 'prepare' | 'close'> {
  const cache = new Map<string, Database.Statement>();
  return {
    close: () => raw.close(),
    prepare(sql: string) {
      const hit = cache.get(sql);
      if (hit && !hit.busy) {
        cache.delete(sql);
        cache.set(sql, hit);
        return hit;
      }
      const stmt = raw.prepare(sql);
      if (sql.length <= CACHE_MAX_SQL && !hit) {
        cache.set(sql, stmt);
        if (cache.size > CACHE_SIZE) cache.delete(cache.keys().next().value as string);
      }
      return stmt;
    },
  } as Pick<Database.Database, 'prepare' | 'close'>;
}

/**
 * The change token: rows changed through this connection (total_changes, which also counts uncommitted
 * and rolled back changes) or commits by other connections (data_version). Undefined when the
 * connection is closed or busy: then the caller does not cache.
 */
function changeTokenReader(raw: Database.Database): () => string | undefined {
  // Two plain statements: ~0.4 µs together, against ~1 µs for one SELECT over pragma_data_version.
  const changes = raw.prepare('SELECT total_changes()').pluck();
  const version = raw.prepare('PRAGMA data_version').pluck();
  return () => {
    try {
      return `${changes.get() as number}:${version.get() as number}`;
    } catch {
      return undefined; // closed, or the connection is busy iterating: the caller reads without the cache
    }
  };
}
