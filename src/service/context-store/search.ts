import type { ActionContext, ActionResult } from '../core/connector-type.js';
import type { CursorSeal } from '../core/cursor-seal.js';
import { ServiceError, type ServiceErrorItem } from '../core/errors.js';
import type { Cond } from './filter-ast.js';
import { textFields } from './fields.js';
import { parseFilter } from './filter-parse.js';
import { planLikes } from './like-plan.js';
import { readFieldIds } from './field-ids.js';
import { normalizeFilter } from './normalize.js';
import { chooseMode } from './plan.js';
import { parseFields, project } from './projection.js';
import { isSearchable, readState } from './readiness.js';
import { isSortDriven, searchSql } from './search-sql.js';
import { decodeCursor, encodeCursor, parseSort, queryFingerprint } from './sort-cursor.js';

/** Default and maximum of params.limit. */
export const SEARCH_LIMIT_DEFAULT = 1000;
export const SEARCH_LIMIT_MAX = 1000;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * context_store_search over the service's own index of one entity of the connector: validates the whole
 * query (every problem, with its path under params), refuses with 409 while the entity is Loading or
 * Building Preview, and answers one keyset page {data, meta: {has_more, cursor, took_ms}}.
 */
export async function contextStoreSearch(
  ctx: ActionContext,
  entity: string,
  params: Record<string, unknown>,
  cursors: CursorSeal,
): Promise<ActionResult> {
  const started = performance.now();
  const db = ctx.store.db;
  const state = await readState(db, ctx.connector.id, entity);
  const status = state?.status ?? 'Loading';
  if (!state || !isSearchable(status)) {
    throw new ServiceError(
      'H409_CONTEXT_STORE',
      { entity, status },
      { field: 'entity', details: { entity, status, ready_for_search: false } },
    );
  }
  const problems: ServiceErrorItem[] = [];
  const known = ['query', 'limit', 'cursor', 'fields'];
  for (const key of Object.keys(params)) {
    if (!known.includes(key))
      problems.push({
        field: `params.${key}`,
        message: `unknown param "${key}"; context_store_search takes ${known.join(', ')}`,
        error_code: 'validation_error',
        details: null,
      });
  }
  const query = params.query;
  let filter: Cond | null = null;
  let sortKeys: ReturnType<typeof parseSort> = [];
  if (!isObject(query)) {
    problems.push({
      field: 'params.query',
      message: 'query is required: an object {filter?, sort?}',
      error_code: 'validation_error',
      details: null,
    });
  } else {
    for (const key of Object.keys(query)) {
      if (key !== 'filter' && key !== 'sort')
        problems.push({
          field: `params.query.${key}`,
          message: `unknown key "${key}"; query takes filter and sort`,
          error_code: 'validation_error',
          details: null,
        });
    }
    if (query.filter !== undefined)
      filter = parseFilter(query.filter, state.catalog, entity, 'params.query.filter', problems);
    sortKeys = parseSort(query.sort, state.catalog, 'params.query.sort', problems);
  }
  const limit = params.limit ?? SEARCH_LIMIT_DEFAULT;
  if (typeof limit !== 'number' || !Number.isInteger(limit) || limit < 1 || limit > SEARCH_LIMIT_MAX) {
    problems.push({
      field: 'params.limit',
      message: `limit must be an integer from 1 to ${SEARCH_LIMIT_MAX}`,
      error_code: 'validation_error',
      details: null,
    });
  }
  const fingerprint = queryFingerprint(isObject(query) ? { f: query.filter, s: query.sort } : null);
  const position = decodeCursor(cursors, params.cursor, sortKeys.length, fingerprint, problems);
  const fields = parseFields(params.fields, state.catalog, problems);
  if (problems.length > 0) {
    throw new ServiceError(
      'H400_INVALID_SEARCH_PARAMS',
      { problems: problems.map((p) => `${p.field}: ${p.message}`).join('; ') },
      { items: problems },
    );
  }

  const normalized = filter && normalizeFilter(filter);
  const likeFields = textFields(state.catalog);
  const fids = await readFieldIds(db, ctx.connector.id, entity);
  const scope = {
    connectorId: ctx.connector.id,
    entity,
    fids,
    likeFields,
    likePlans: await planLikes(db, ctx.connector.id, entity, normalized, likeFields),
    // Counting a filter's matches to choose the mode costs as much as a sorted page: skipped when unused.
    mode: isSortDriven(normalized, sortKeys)
      ? ('exists' as const)
      : await chooseMode(db, fids, normalized, state.scanned),
  };
  const pageSize = limit as number;
  const result = await searchSql(scope, normalized, sortKeys, position, pageSize + 1).execute(db);

  const rows = result.rows.slice(0, pageSize);
  const hasMore = result.rows.length > pageSize;
  const last = rows[rows.length - 1];
  const cursor =
    hasMore && last
      ? encodeCursor(
          cursors,
          {
            values: sortKeys.map((_, i) => [Number(last[`k${i}`]), Number(last[`n${i}`]), String(last[`t${i}`])]),
            id: last.id,
          },
          fingerprint,
        )
      : null;
  const data = rows.map((r) => project(JSON.parse(r.doc) as Record<string, unknown>, fields));
  const tookMs = Math.round((performance.now() - started) * 100) / 100;
  return {
    kind: 'json',
    result: { data, meta: { has_more: hasMore, cursor, took_ms: tookMs } },
    connectorMetadata: { has_next_page: hasMore, end_cursor: cursor },
  };
}
