import { sql, type SqlBool, type RawBuilder } from 'kysely';
import { ServiceError } from '../../../core/errors.js';
import type { ActionContext, ActionResult } from '../../../core/connector-type.js';
import type { CrmRecordRow } from '../db.js';
import type { ObjectType } from '../object-types.js';
import { jsonResult, pageLimit, pagingMetadata, parseAfter, rejectCursor } from '../paging.js';
import { rowToRecord } from '../records-store.js';
import { renderRecords } from '../record-view.js';
import { propertyExprs, propertyPath } from '../search-index.js';
import { compileAssociationFilter } from './association-filter.js';
import { compileFilter, escapeLike, type CompiledFilter, type SearchFilter } from './search-filter.js';

/** api_search limits (the spec's 6 groups; crm-behaviour.md §4 for the rest). */
export const SEARCH_LIMITS = {
  groups: 6,
  filtersPerGroup: 6,
  filtersTotal: 18,
  queryLength: 3000,
  maxResults: 10_000,
  defaultLimit: 25,
  maxLimit: 200,
} as const;

export interface SortRule {
  propertyName: string;
  direction?: 'ASCENDING' | 'DESCENDING';
}

interface SearchParams {
  filterGroups?: { filters: SearchFilter[] }[];
  sorts?: SortRule[];
  query?: string;
  properties?: string[];
}

function bad(field: string, message: string, details: Record<string, unknown> | null = null): ServiceError {
  return new ServiceError('H400_INVALID_SEARCH', { message }, { field, details });
}

/**
 * api_search: filter groups ORed, filters ANDed, one sort, free-text query, offset paging with `after`;
 * archived records never match. Everything runs in SQL: the filters (search-filter.ts) on the indexed
 * keys of search-index.ts, the sort, the page and the total.
 */
export async function apiSearch(
  ctx: ActionContext,
  type: ObjectType,
  params: Record<string, unknown>,
): Promise<ActionResult> {
  rejectCursor(params);
  const p = params as SearchParams;
  const limit = pageLimit(params, SEARCH_LIMITS.defaultLimit, SEARCH_LIMITS.maxLimit);
  const offset = parseAfter(params) ?? 0;
  if (offset >= SEARCH_LIMITS.maxResults) {
    throw bad(
      'params.after',
      `api_search returns at most ${SEARCH_LIMITS.maxResults} results per query; narrow the filters instead of paging past them`,
      { maximum: SEARCH_LIMITS.maxResults },
    );
  }
  const groups = await compileGroups(ctx, type, p.filterGroups ?? []);
  const query = p.query ?? '';
  if (query.length > SEARCH_LIMITS.queryLength)
    throw bad('params.query', `params.query is longer than ${SEARCH_LIMITS.queryLength} characters`);
  if ((p.sorts ?? []).length > 1) throw bad('params.sorts', 'api_search honours exactly one sort rule');

  const statements = searchStatements(ctx.connector.id, type, groups, query, p.sorts?.[0]);
  const db = ctx.store.db;
  const total = Number((await statements.count.execute(db)).rows[0]?.n ?? 0);
  const end = Math.min(offset + limit, total, SEARCH_LIMITS.maxResults);
  const rows = end > offset ? (await statements.page(end - offset, offset).execute(db)).rows : [];
  const next = end < Math.min(total, SEARCH_LIMITS.maxResults) ? String(end) : null;
  const result = await renderRecords(db, ctx.connector.id, type, rows.map(rowToRecord), {
    properties: p.properties && p.properties.length > 0 ? p.properties : null,
    propertiesWithHistory: null,
    associations: null,
  });
  return jsonResult(result, pagingMetadata(ctx, type.key, 'api_search', next, { total }, { limit: String(limit) }));
}

/** The SQL of one search: its total, and one page of records in order. */
export function searchStatements(
  connectorId: string,
  type: ObjectType,
  groups: readonly CompiledFilter[][],
  query: string,
  sort: SortRule | undefined,
): { count: RawBuilder<{ n: number }>; page: (limit: number, offset: number) => RawBuilder<CrmRecordRow> } {
  // The entity is a literal, not a parameter: SQLite uses an entity's partial indexes only when it sees it.
  const where: RawBuilder<SqlBool>[] = [
    sql<SqlBool>`connector_id = ${connectorId}`,
    sql<SqlBool>`object_type = ${sql.lit(type.key)}`,
    sql<SqlBool>`archived = 0`,
  ];
  if (groups.length > 0) {
    const ors = groups.map(
      (g) =>
        sql<SqlBool>`(${sql.join(
          g.map((f) => f.sql),
          sql` AND `,
        )})`,
    );
    where.push(sql<SqlBool>`(${sql.join(ors, sql` OR `)})`);
  }
  if (query !== '') where.push(queryMatch(type, query));
  const condition = sql.join(where, sql` AND `);
  const order = orderBy(groups, sort);
  return {
    count: sql<{ n: number }>`SELECT count(*) AS n FROM crm_records WHERE ${condition}`,
    page: (limit, offset) =>
      sql<CrmRecordRow>`SELECT * FROM crm_records WHERE ${condition} ORDER BY ${order} LIMIT ${limit} OFFSET ${offset}`,
  };
}

/**
 * `query`: a case-insensitive substring of one of the type's query properties. Text without characters
 * outside printable ASCII is matched by LIKE (case-insensitive for ASCII, so exact there); other text by
 * the JavaScript case folding (crm_key), the same rule as everywhere else.
 */
function queryMatch(type: ObjectType, query: string): RawBuilder<SqlBool> {
  const folded = query.toLowerCase();
  const like = `%${escapeLike(query)}%`;
  const names = type.queryProperties.filter((name) => propertyPath(name) !== null);
  if (names.length === 0) return sql<SqlBool>`0`;
  const ors = names.map((name) => {
    const { value, key } = propertyExprs(name);
    return sql<SqlBool>`(CASE WHEN ${value} GLOB '*[^ -~]*' THEN instr(${key}, ${folded}) > 0 ELSE ${value} LIKE ${like} ESCAPE '\\' END)`;
  });
  return sql<SqlBool>`(${sql.join(ors, sql` OR `)})`;
}

/**
 * ORDER BY of a page: by id, or by the sort property with records without it last and ties by id. Within
 * one sort, numbers come before text, each in its own order (numbers by value, text by case-folded code
 * points); when every group's filters already keep only non-numeric values of that property (a date range),
 * the order is the folded key alone, which its index gives without sorting.
 */
function orderBy(groups: readonly CompiledFilter[][], sort: SortRule | undefined): RawBuilder<unknown> {
  if (!sort) return sql`id`;
  const { key, num } = propertyExprs(sort.propertyName);
  const desc = sort.direction === 'DESCENDING';
  const dir = sql.raw(desc ? 'DESC' : 'ASC');
  const keyed = groups.length > 0 && groups.every((g) => g.some((f) => f.sortKey === sort.propertyName));
  if (keyed) return sql`${key} ${dir}, id`;
  return desc
    ? sql`(${key} IS NULL), (${num} IS NULL) DESC, ${num} DESC, ${key} DESC, id`
    : sql`(${key} IS NULL), (${num} IS NULL), ${num}, ${key}, id`;
}

export async function compileGroups(
  ctx: ActionContext,
  type: ObjectType,
  groups: readonly { filters: SearchFilter[] }[],
): Promise<CompiledFilter[][]> {
  if (groups.length > SEARCH_LIMITS.groups)
    throw bad('params.filterGroups', `at most ${SEARCH_LIMITS.groups} filterGroups are allowed`);
  let total = 0;
  for (const [i, g] of groups.entries()) {
    const filters = g.filters ?? [];
    if (filters.length === 0)
      throw bad(`params.filterGroups[${i}].filters`, 'a filter group needs at least one filter');
    if (filters.length > SEARCH_LIMITS.filtersPerGroup)
      throw bad(
        `params.filterGroups[${i}].filters`,
        `at most ${SEARCH_LIMITS.filtersPerGroup} filters per group are allowed`,
      );
    total += filters.length;
  }
  if (total > SEARCH_LIMITS.filtersTotal)
    throw bad(
      'params.filterGroups',
      `at most ${SEARCH_LIMITS.filtersTotal} filters in total are allowed (got ${total})`,
    );
  const out: CompiledFilter[][] = [];
  for (const [i, g] of groups.entries()) {
    const compiled: CompiledFilter[] = [];
    for (const [j, f] of g.filters.entries()) {
      const field = `params.filterGroups[${i}].filters[${j}]`;
      compiled.push(
        f.propertyName.startsWith('associations.')
          ? await compileAssociationFilter(ctx, type, f, field)
          : compileFilter(type, f, field),
      );
    }
    out.push(compiled);
  }
  return out;
}
