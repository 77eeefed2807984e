import { ServiceError } from '../../core/errors.js';

/** Defaults and maximum of the list actions' limit (also stated in the params schemas and docs). */
export const FILES_LIMIT_DEFAULT = 50;
export const FILES_LIMIT_MAX = 200;

/** Files pages with offset/limit: a cursor would be silently useless, so it is refused with the keys to use. */
export function rejectCursor(params: Record<string, unknown>): void {
  if (params.cursor === undefined) return;
  throw new ServiceError(
    'H400_CURSOR_NOT_SUPPORTED',
    {
      type: 'Files',
      instead: 'send params.offset and params.limit (take next_offset from connector_metadata)',
    },
    { field: 'params.cursor', details: { use: ['offset', 'limit'] } },
  );
}

/** Reads offset/limit with their defaults (the schema already bounded them). */
export function readPage(params: Record<string, unknown>): { offset: number; limit: number } {
  const offset = typeof params.offset === 'number' ? params.offset : 0;
  const limit = typeof params.limit === 'number' ? params.limit : FILES_LIMIT_DEFAULT;
  return { offset, limit };
}

/** connector_metadata of a list page: has_more/next_offset are Files' own keys; has_next_page is for generic clients. */
export function pageMetadata(offset: number, count: number, total: number): Record<string, unknown> {
  const hasMore = offset + count < total;
  return { has_more: hasMore, next_offset: hasMore ? offset + count : null, has_next_page: hasMore, total };
}
