import { CompiledQuery, SqliteAdapter, sql, type Kysely } from 'kysely';
import type { CoreTables } from '../../core/tables.js';

/** Rows per statement: 500 rows of up to 9 columns stay far below SQLite's 32,766 bound parameters. */
const ROWS_PER_STATEMENT = 500;

/**
 * Inserts many rows with one multi-row statement per batch, executed as a precompiled query, which skips
 * Kysely's per-row parsing:
 * seeding a million contacts spends its time in SQLite, not in the query builder. Uses "?" placeholders
 * (SQLite's); a PostgreSQL store would number them here, the one place that writes this SQL.
 */
export async function bulkInsert(
  trx: Kysely<CoreTables>,
  table: string,
  columns: readonly string[],
  rows: readonly (readonly unknown[])[],
  ignoreDuplicates = false,
): Promise<void> {
  for (let i = 0; i < rows.length; i += ROWS_PER_STATEMENT) {
    const chunk = rows.slice(i, i + ROWS_PER_STATEMENT);
    const tuple = `(${columns.map(() => '?').join(',')})`;
    const text = `insert into ${table} (${columns.join(', ')}) values ${Array.from({ length: chunk.length }, () => tuple).join(',')}${ignoreDuplicates ? ' on conflict do nothing' : ''}`;
    const params: unknown[] = [];
    for (const row of chunk) for (const v of row) params.push(v);
    await trx.executeQuery(CompiledQuery.raw(text, params));
  }
}

/** Page cache while bulk loading: 256 MB keeps a million-contact load's B-tree pages in memory. */
const BULK_CACHE_KIB = 262_144;

/**
 * Runs a bulk load with a larger SQLite page cache on the store's connection, then restores the
 * previous size. With the default 2 MB cache, a million-contact seed spends a third of its CPU time
 * re-reading index pages from the OS. No-op on other dialects.
 */
export async function withBulkLoadCache<T>(db: Kysely<CoreTables>, fn: () => Promise<T>): Promise<T> {
  if (!(db.getExecutor().adapter instanceof SqliteAdapter)) return fn();
  const before = await sql<{ cache_size: number }>`pragma cache_size`.execute(db);
  const previous = Number(before.rows[0]?.cache_size ?? -2000);
  await sql.raw(`pragma cache_size = -${BULK_CACHE_KIB}`).execute(db);
  try {
    return await fn();
  } finally {
    await sql.raw(`pragma cache_size = ${Math.trunc(previous)}`).execute(db);
  }
}
