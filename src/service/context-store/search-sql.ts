import { sql, type RawBuilder } from 'kysely';
import type { Cond, SortKey } from './filter-ast.js';
import { condToSql, rangeBranchesOn, type SqlScope } from './filter-sql.js';
import { afterPosition, orderBy, orderColumns, type CursorPosition } from './sort-cursor.js';
import { fidOf } from './field-ids.js';

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
/** Whether searchSql reads the page from the first sort key's index (then the filter's mode does not matter). */
export function isSortDriven(filter: Cond | null, sortKeys: readonly SortKey[]): boolean {
  const first = sortKeys[0];
  return first !== undefined && splitOnField(filter, first.field) !== null;
}

export function searchSql(
  scope: SqlScope,
  filter: Cond | null,
  sortKeys: readonly SortKey[],
  position: CursorPosition | null,
  rows: number,
): RawBuilder<SearchRow> {
  const first = sortKeys[0];
  const split = first ? splitOnField(filter, first.field) : null;
  if (first && split) return sortDrivenSql(scope, split, sortKeys, position, rows);
  const cols = orderColumns(sortKeys, position);
  const joins = sortKeys.map((k, i) => sortJoin(scope, k, i));
  const sortSelect = sortKeys.map(
    (_, i) => sql`, ${sql.raw(`s${i}.kind AS k${i}, s${i}.num AS n${i}, s${i}.text AS t${i}`)}`,
  );
  const where = [sql`d.connector_id = ${scope.connectorId}`, sql`d.entity = ${scope.entity}`];
  if (filter) where.push(condToSql(filter, scope));
  if (position) where.push(afterPosition(cols));
  return sql<SearchRow>`SELECT d.id AS id, d.doc AS doc${sql.join(sortSelect, sql``)} FROM cs_docs d ${sql.join(joins, sql` `)} WHERE ${sql.join(where, sql` AND `)} ORDER BY ${orderBy(cols)} LIMIT ${rows}`;
}

/** A filter as one range (or comparison) on a field ANDed with the rest; null when it is not of that shape. */
interface SplitFilter {
  /** The range on the sort field, or null when the filter does not constrain it. */
  readonly range: Cond | null;
  readonly rest: Cond | null;
}

/**
 * Splits off a range on `field` from a filter's top-level AND (the shape of "a window of dates, newest
 * first"); no filter at all splits into nothing. Null when the filter has no such range: it is not driven
 * by the sort then.
 */
function splitOnField(filter: Cond | null, field: string): SplitFilter | null {
  if (filter === null) return { range: null, rest: null };
  const isRange = (c: Cond) => 'field' in c && c.field === field && rangeBranchesOn(c, 's0') !== null;
  if (isRange(filter)) return { range: filter, rest: null };
  if (filter.kind !== 'and') return null;
  const at = filter.items.findIndex(isRange);
  if (at < 0) return null;
  const others = filter.items.filter((_, i) => i !== at);
  const rest =
    others.length === 0 ? null : others.length === 1 ? (others[0] as Cond) : { kind: 'and' as const, items: others };
  return { range: filter.items[at] as Cond, rest };
}

/**
 * The page read in sort order from the value index of the first sort key: each index range of the range
 * (one per kind of value, see rangeBranches) is scanned in order and stops after a page, the other
 * conditions are probed per document, and the branches (disjoint, in kind order) are merged. A window of
 * dates sorted by date reads about a page of index entries instead of every match.
 */
function sortDrivenSql(
  scope: SqlScope,
  split: SplitFilter,
  sortKeys: readonly SortKey[],
  position: CursorPosition | null,
  rows: number,
): RawBuilder<SearchRow> {
  const first = sortKeys[0] as SortKey;
  // Probing per document: the driver is the sort index, not a list of matching ids.
  const probe: SqlScope = { connectorId: scope.connectorId, entity: scope.entity, fids: scope.fids, mode: 'exists' };
  // The index gives (kind, num, text) in order; records with equal values are put in id order by SQLite
  // (a sort of each run of equal values, which is short unless many records share the value).
  const cols = orderColumns(sortKeys, position);
  const joins = sortKeys.slice(1).map((k, j) => sortJoin(scope, k, j + 1));
  const select = sortKeys.map(
    (_, i) => sql`, ${sql.raw(`s${i}.kind AS k${i}, s${i}.num AS n${i}, s${i}.text AS t${i}`)}`,
  );
  const branches = split.range ? (rangeBranchesOn(split.range, 's0') ?? []) : [null];
  const parts = branches.map((branch) => {
    // The field's number names the connector and entity too.
    const where = [sql`s0.fid = ${fidOf(scope.fids, first.field)}`];
    if (branch) where.push(branch);
    if (split.rest) where.push(condToSql(split.rest, probe));
    if (position) where.push(afterPosition(cols));
    return sql`SELECT * FROM (SELECT d.id AS id, d.doc AS doc${sql.join(select, sql``)} FROM cs_values s0 JOIN cs_docs d ON d.rowid = s0.doc ${sql.join(joins, sql` `)} WHERE ${sql.join(where, sql` AND `)} ORDER BY ${orderBy(cols)} LIMIT ${rows})`;
  });
  if (parts.length === 1) return sql<SearchRow>`${parts[0]}`;
  // The outer order names the result columns (k0, n0, t0, ..., id).
  const outer = sortKeys.flatMap((k, i) => {
    const dir = sql.raw(k.dir === 'asc' ? 'ASC' : 'DESC');
    return [sql`${sql.raw(`k${i}`)} ${dir}`, sql`${sql.raw(`n${i}`)} ${dir}`, sql`${sql.raw(`t${i}`)} ${dir}`];
  });
  return sql<SearchRow>`${sql.join(parts, sql` UNION ALL `)} ORDER BY ${sql.join([...outer, sql`id ASC`])} LIMIT ${rows}`;
}

/** The value row (alias s<i>) of sort key i of document d. */
function sortJoin(scope: SqlScope, key: SortKey, i: number): RawBuilder<unknown> {
  const s = sql.raw(`s${i}`);
  return sql`JOIN cs_values ${s} ON ${s}.doc = d.rowid AND ${s}.fid = ${fidOf(scope.fids, key.field)}`;
}
