import { sql, type SqlBool, type RawBuilder } from 'kysely';
import { ServiceError } from '../../../core/errors.js';
import type { ActionContext, ActionResult } from '../../../core/connector-type.js';
import { crmDb } from '../db.js';
import type { ObjectType } from '../object-types.js';
import { jsonResult, pageLimit, pagingMetadata, parseAfter, rejectCursor } from '../paging.js';
import { jsonPath, rowToRecord, type StoredRecord } from '../records-store.js';
import { renderRecords } from '../record-view.js';
import { compileAssociationFilter } from './association-filter.js';
import { compareValues, compileFilter, escapeLike, type CompiledFilter, type SearchFilter } from './search-filter.js';

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

interface SearchParams {
  filterGroups?: { filters: SearchFilter[] }[];
  sorts?: { propertyName: string; direction?: 'ASCENDING' | 'DESCENDING' }[];
  query?: string;
  properties?: string[];
}

function bad(field: string, message: string, details: Record<string, unknown> | null = null): ServiceError {
  return new ServiceError('H400_INVALID_SEARCH', { message }, { field, details });
}

/**
 * api_search: filter groups ORed, filters ANDed, one sort, free-text query, offset paging with `after`;
 * archived records never match. SQL narrows the candidates; each filter's exact test runs on them.
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

  if (groups.length === 0 && query === '' && !p.sorts?.[0]) return unfilteredPage(ctx, type, p, offset, limit);
  const candidates = await loadCandidates(ctx, type, groups, query);
  const q = query.toLowerCase();
  const matches = candidates.filter(
    (r) =>
      (groups.length === 0 || groups.some((g) => g.every((f) => f.test(r.properties)))) &&
      (q === '' || type.queryProperties.some((name) => (r.properties[name] ?? '').toLowerCase().includes(q))),
  );
  const sort = p.sorts?.[0];
  if (sort) sortRecords(type, matches, sort.propertyName, sort.direction === 'DESCENDING');

  const end = Math.min(offset + limit, matches.length, SEARCH_LIMITS.maxResults);
  const page = matches.slice(offset, end);
  const next = end < Math.min(matches.length, SEARCH_LIMITS.maxResults) ? String(end) : null;
  const result = await renderRecords(ctx.store.db, ctx.connector.id, type, page, {
    properties: p.properties && p.properties.length > 0 ? p.properties : null,
    propertiesWithHistory: null,
    associations: null,
  });
  return jsonResult(
    result,
    pagingMetadata(ctx, type.key, 'api_search', next, { total: matches.length }, { limit: String(limit) }),
  );
}

/** A search without filters, query or sort is a plain id-ordered page: SQL counts and pages it (no full scan in JS). */
async function unfilteredPage(
  ctx: ActionContext,
  type: ObjectType,
  p: SearchParams,
  offset: number,
  limit: number,
): Promise<ActionResult> {
  const base = crmDb(ctx.store.db)
    .selectFrom('crm_records')
    .where('connector_id', '=', ctx.connector.id)
    .where('object_type', '=', type.key)
    .where('archived', '=', 0);
  const counted = await base.select(sql<number>`count(*)`.as('n')).executeTakeFirst();
  const total = Number(counted?.n ?? 0);
  const end = Math.min(offset + limit, total, SEARCH_LIMITS.maxResults);
  const rows =
    end > offset
      ? await base
          .selectAll()
          .orderBy('id')
          .limit(end - offset)
          .offset(offset)
          .execute()
      : [];
  const next = end < Math.min(total, SEARCH_LIMITS.maxResults) ? String(end) : null;
  const result = await renderRecords(ctx.store.db, ctx.connector.id, type, rows.map(rowToRecord), {
    properties: p.properties && p.properties.length > 0 ? p.properties : null,
    propertiesWithHistory: null,
    associations: null,
  });
  return jsonResult(result, pagingMetadata(ctx, type.key, 'api_search', next, { total }, { limit: String(limit) }));
}

async function compileGroups(
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

async function loadCandidates(
  ctx: ActionContext,
  type: ObjectType,
  groups: CompiledFilter[][],
  query: string,
): Promise<StoredRecord[]> {
  let qb = crmDb(ctx.store.db)
    .selectFrom('crm_records')
    .selectAll()
    .where('connector_id', '=', ctx.connector.id)
    .where('object_type', '=', type.key)
    .where('archived', '=', 0);
  const groupSql = groups.map((g) => g.map((f) => f.sql).filter((s): s is RawBuilder<SqlBool> => s !== null));
  // A group without any prefilter can match anything, so the OR only narrows when every group has one.
  if (groups.length > 0 && groupSql.every((g) => g.length > 0)) {
    const ors = groupSql.map((g) => sql<SqlBool>`(${sql.join(g, sql` and `)})`);
    qb = qb.where(sql<SqlBool>`(${sql.join(ors, sql` or `)})`);
  }
  const paths = type.queryProperties.map(jsonPath).filter((x): x is string => x !== null);
  if (query !== '' && /^[\x20-\x7e]*$/.test(query) && paths.length === type.queryProperties.length) {
    const like = `%${escapeLike(query.toLowerCase())}%`;
    const ors = paths.map((path) => sql<SqlBool>`lower(json_extract(properties, ${path})) like ${like} escape '\\'`);
    qb = qb.where(sql<SqlBool>`(${sql.join(ors, sql` or `)})`);
  }
  const rows = await qb.orderBy('id').execute();
  return rows.map(rowToRecord);
}

function sortRecords(type: ObjectType, recs: StoredRecord[], property: string, descending: boolean): void {
  recs.sort((a, b) => {
    const x = a.properties[property];
    const y = b.properties[property];
    // Records without the property go last in either direction; ties keep id order.
    if (x === undefined || y === undefined) return x === y ? a.id - b.id : x === undefined ? 1 : -1;
    const c = compareValues(type, property, x, y);
    return c === 0 ? a.id - b.id : descending ? -c : c;
  });
}
