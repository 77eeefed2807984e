/**
 * Automatic paging keys: how to ask for the page after this one, read from the answer and the request.
 *
 * 1. context_store_search: the result is {data, meta}; send meta.cursor as params.cursor while meta.has_more.
 * 2. offset paging: connector_metadata has next_offset (or the request sent offset); send it as params.offset
 *    (or offset + items on the page when next_offset is absent) while has_more / has_next_page is not false.
 * 3. after paging (CRM list): connector_metadata has next_cursor (or the request sent after); send it as
 *    params.after, unless the action's declared params (from inspect) have cursor and not after.
 * 4. cursor paging: connector_metadata has_next_page/end_cursor (or hasNextPage/endCursor); send end_cursor
 *    as params.cursor, unless the action's declared params have after and not cursor.
 * Otherwise there is one page. When the choice in 3 or 4 depends on the action's params and they are not
 * known yet, the answer says so (`needsActionParams`) and the caller asks again with them.
 */
export type NextPage =
  | { readonly kind: 'stop' }
  | { readonly kind: 'next'; readonly key: string; readonly value: unknown; readonly params: Record<string, unknown> }
  | { readonly kind: 'needs-action-params' };

const STOP: NextPage = { kind: 'stop' };
const NEEDS_ACTION_PARAMS: NextPage = { kind: 'needs-action-params' };

/** The items of one page: the result itself when it is an array, else its data[] or results[]. */
export function itemsOf(result: unknown): unknown[] | undefined {
  if (Array.isArray(result)) return result;
  if (result !== null && typeof result === 'object') {
    const r = result as Record<string, unknown>;
    if (Array.isArray(r.data)) return r.data;
    if (Array.isArray(r.results)) return r.results;
  }
  return undefined;
}

/**
 * The params of the next request, or stop. `actionParams` are the names the action declares (inspect's
 * required_params + optional_params): undefined when not asked yet, null when the service does not say.
 */
export function autoNext(
  params: Record<string, unknown>,
  result: unknown,
  meta: Record<string, unknown>,
  pageSize: number,
  actionParams?: ReadonlySet<string> | null,
): NextPage {
  const next = (key: string, value: unknown): NextPage =>
    value === undefined || value === null || value === ''
      ? STOP
      : { kind: 'next', key, value, params: { ...params, [key]: value } };
  const more = meta.has_next_page ?? meta.hasNextPage ?? meta.has_more;

  const searchMeta = contextStoreMeta(result);
  if (searchMeta) return searchMeta.has_more === false ? STOP : next('cursor', searchMeta.cursor);

  if ('next_offset' in meta || 'offset' in params) {
    if (more === false) return STOP;
    const offset = meta.next_offset ?? Number(params.offset ?? 0) + pageSize;
    return next('offset', offset);
  }
  const declares = (name: string): boolean => actionParams?.has(name) === true;
  if ('next_cursor' in meta || 'after' in params) {
    if (more === false) return STOP;
    const value = meta.next_cursor ?? meta.end_cursor ?? meta.endCursor;
    if ('after' in params || 'cursor' in params) return next('after' in params ? 'after' : 'cursor', value);
    if (actionParams === undefined && value !== undefined && value !== null && value !== '') return NEEDS_ACTION_PARAMS;
    return next(declares('cursor') && !declares('after') ? 'cursor' : 'after', value);
  }
  if (more !== undefined || 'end_cursor' in meta || 'endCursor' in meta) {
    if (more === false) return STOP;
    const value = meta.end_cursor ?? meta.endCursor;
    if ('cursor' in params) return next('cursor', value);
    if (actionParams === undefined && value !== undefined && value !== null && value !== '') return NEEDS_ACTION_PARAMS;
    return next(declares('after') && !declares('cursor') ? 'after' : 'cursor', value);
  }
  return STOP;
}

function contextStoreMeta(result: unknown): { has_more?: unknown; cursor?: unknown } | undefined {
  if (result === null || typeof result !== 'object' || Array.isArray(result)) return undefined;
  const r = result as Record<string, unknown>;
  if (!Array.isArray(r.data) || r.meta === null || typeof r.meta !== 'object') return undefined;
  return r.meta as { has_more?: unknown; cursor?: unknown };
}
