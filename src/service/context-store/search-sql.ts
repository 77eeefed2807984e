import { sql, type RawBuilder } from 'kysely';
import type { Cond, SortKey } from './filter-ast.js';
import { condToSql, type SqlScope } from './filter-sql.js';
import { afterPosition, orderBy, orderColumns, type CursorPosition } from './sort-cursor.js';

/** One row of a search page: the document and, per sort key i, its sort values k<i>, n<i>, t<i>. */
export interface SearchRow {
  id: string;
  doc: string;
  [sortColumn: string]: unknown;
}

/**
 * The page query: documents of one entity matching the filter, after the cursor position, in sort order
 * with id as the tie-break. Sort keys join the value table (aliases s0..s4 come from positions, never
 * from caller text).
 */
export function searchSql(
  scope: SqlScope,
  filter: Cond | null,
  sortKeys: readonly SortKey[],
  position: CursorPosition | null,
  rows: number,
): RawBuilder<SearchRow> {
  const cols = orderColumns(sortKeys, position);
  const joins = sortKeys.map((k, i) => {
    const s = sql.raw(`s${i}`);
    return sql`JOIN cs_values ${s} ON ${s}.connector_id = d.connector_id AND ${s}.entity = d.entity AND ${s}.id = d.id AND ${s}.field = ${k.field}`;
  });
  const sortSelect = sortKeys.map(
    (_, i) => sql`, ${sql.raw(`s${i}.kind AS k${i}, s${i}.num AS n${i}, s${i}.text AS t${i}`)}`,
  );
  const where = [sql`d.connector_id = ${scope.connectorId}`, sql`d.entity = ${scope.entity}`];
  if (filter) where.push(condToSql(filter, scope));
  if (position) where.push(afterPosition(cols));
  return sql<SearchRow>`SELECT d.id AS id, d.doc AS doc${sql.join(sortSelect, sql``)} FROM cs_docs d ${sql.join(joins, sql` `)} WHERE ${sql.join(where, sql` AND `)} ORDER BY ${orderBy(cols)} LIMIT ${rows}`;
}
