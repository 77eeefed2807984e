import type { JsonSchema, PagingParam } from './types.js';

/**
 * How an action pages, read from its params schema as the service's own paging guidance reads it:
 * context_store_search with `cursor`; otherwise the position param the schema accepts (`offset`, `after`,
 * or a `cursor` that is not refused).
 */
export function pagingOf(action: string, params: JsonSchema): PagingParam | null {
  const props = (params.properties ?? {}) as Record<string, JsonSchema>;
  if (action === 'context_store_search') return 'cursor';
  if ('offset' in props) return 'offset';
  if ('after' in props) return 'after';
  if ('cursor' in props && props.cursor?.deprecated !== true) return 'cursor';
  return null;
}
