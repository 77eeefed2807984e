import { CompiledQuery, type Kysely } from 'kysely';
import type { CoreTables } from '../core/tables.js';

/** Rows per statement: the JSON text of one chunk stays a few hundred kilobytes. */
const ROWS_PER_STATEMENT = 2000;

/**
 * Inserts many rows with one short, fixed statement per table: the rows travel as one JSON array bound to
 * a single parameter and SQLite unpacks them (json_each). The statement text never changes, so the store
 * prepares it once and reuses it, where a multi-row VALUES list of 1,000 tuples was prepared anew for each
 * chunk (its text is too long to cache), and there is no limit on bound parameters to chunk around.
 * `fixed` are values shared by every row (the connector and entity); each row holds the other columns'
 * values in order. SQLite-specific (json_each, ->>): a PostgreSQL store would use json_array_elements.
 */
export async function insertJsonRows(
  trx: Kysely<CoreTables>,
  table: string,
  fixed: readonly { column: string; value: string }[],
  columns: readonly string[],
  rows: readonly (readonly unknown[])[],
): Promise<void> {
  if (rows.length === 0) return;
  const names = [...fixed.map((f) => f.column), ...columns].join(', ');
  const picks = [...fixed.map(() => '?'), ...columns.map((_, i) => `value->>${i}`)].join(', ');
  const text = `INSERT INTO ${table} (${names}) SELECT ${picks} FROM json_each(?)`;
  const shared = fixed.map((f) => f.value);
  for (let i = 0; i < rows.length; i += ROWS_PER_STATEMENT) {
    const part = rows.length <= ROWS_PER_STATEMENT ? rows : rows.slice(i, i + ROWS_PER_STATEMENT);
    await trx.executeQuery(CompiledQuery.raw(text, [...shared, JSON.stringify(part)]));
  }
}
