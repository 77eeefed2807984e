import { ServiceError } from '../../core/errors.js';
import type { ActionContext, ActionResult } from '../../core/connector-type.js';

/**
 * The CRM pages with params.after (the spec's "connector that rejects cursor"); a cursor is refused
 * with a message that names the key to use.
 */
export function rejectCursor(params: Record<string, unknown>): void {
  if (params.cursor !== undefined) {
    throw new ServiceError(
      'H400_CURSOR_NOT_SUPPORTED',
      { type: 'CRM', instead: 'send params.after instead (connector_metadata.end_cursor of the previous page)' },
      { field: 'params.cursor', details: { use: 'after' } },
    );
  }
}

/** Checks a limit against its maximum (over the maximum is a 400, not a clamp) and applies the default. */
export function pageLimit(params: Record<string, unknown>, dflt: number, max: number, why = ''): number {
  const raw = params.limit;
  if (raw === undefined || raw === null) return dflt;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1 || n > max) {
    throw new ServiceError(
      'H400_INVALID_LIMIT',
      { message: `params.limit must be an integer from 1 to ${max}${why}` },
      { field: 'params.limit', details: { maximum: max } },
    );
  }
  return n;
}

/** Parses params.after (a numeric id or offset string); absent → null. */
export function parseAfter(params: Record<string, unknown>): number | null {
  const raw = params.after;
  if (raw === undefined || raw === null || raw === '') return null;
  const text = String(raw);
  if (!/^\d{1,15}$/.test(text)) {
    throw new ServiceError(
      'H400_INVALID_CURSOR',
      { message: 'params.after must be the numeric string from connector_metadata.end_cursor of the previous page' },
      { field: 'params.after' },
    );
  }
  return Number(text);
}

/** connector_metadata of a paged answer: has_next_page, end_cursor = next_cursor = the next after value, next_link. */
export function pagingMetadata(
  ctx: ActionContext,
  entity: string,
  action: string,
  next: string | null,
  extra: Record<string, unknown> = {},
  query: Record<string, string> = {},
): Record<string, unknown> {
  let link: string | null = null;
  if (next !== null) {
    const qs = new URLSearchParams({ entity, action, ...query, after: next });
    link = `${ctx.baseUrl.replace(/\/$/, '')}/api/v1/integrations/connectors/${encodeURIComponent(ctx.connector.id)}/execute?${qs.toString()}`;
  }
  return { has_next_page: next !== null, end_cursor: next, next_cursor: next, next_link: link, ...extra };
}

/** A JSON action result. */
export function jsonResult(result: unknown, connectorMetadata: Record<string, unknown> = {}): ActionResult {
  return { kind: 'json', result, connectorMetadata };
}
