import type { ActionDescriptor } from '../core/connector-type.js';

/** How an action pages, read from its params schema (the same one that validates execute). */
export function pagingGuidance(a: ActionDescriptor): string | null {
  const props = (a.paramsSchema.properties ?? {}) as Record<string, unknown>;
  if (a.action === 'context_store_search') {
    return 'Pages with params.cursor: while meta.has_more (= connector_metadata.has_next_page) is true, send meta.cursor (= connector_metadata.end_cursor) as params.cursor with the same query.';
  }
  if ('offset' in props) {
    return 'Pages with params.offset and params.limit (params.cursor is rejected with a 400): while connector_metadata.has_more is true, send connector_metadata.next_offset as params.offset.';
  }
  if ('after' in props) {
    return 'Pages with params.after (params.cursor is rejected with a 400): while connector_metadata.has_next_page is true, send connector_metadata.end_cursor as params.after.';
  }
  if ('cursor' in props) {
    return 'Pages with params.cursor: while connector_metadata.has_next_page is true, send connector_metadata.end_cursor as params.cursor.';
  }
  return null;
}
