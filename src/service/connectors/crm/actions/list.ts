import type { ActionContext, ActionResult } from '../../../core/connector-type.js';
import type { ObjectType } from '../object-types.js';
import { jsonResult, pageLimit, pagingMetadata, parseAfter, rejectCursor } from '../paging.js';
import { listPage } from '../records-store.js';
import { renderRecords, splitList } from '../record-view.js';

/** Maximum page size of list; propertiesWithHistory lowers it (crm-behaviour.md §1). */
export const LIST_MAX = 100;
export const LIST_MAX_WITH_HISTORY = 50;
export const LIST_DEFAULT = 25;

/** list (and objects list): one page of records in id order, paged with params.after. */
export async function listRecords(
  ctx: ActionContext,
  entity: string,
  type: ObjectType,
  params: Record<string, unknown>,
): Promise<ActionResult> {
  rejectCursor(params);
  const withHistory = splitList(params.propertiesWithHistory);
  const limit = withHistory
    ? pageLimit(params, LIST_DEFAULT, LIST_MAX_WITH_HISTORY, ' when propertiesWithHistory is given')
    : pageLimit(params, LIST_DEFAULT, LIST_MAX);
  const from = parseAfter(params) ?? 0;
  const archived = params.archived === true;
  const rows = await listPage(ctx.store.db, ctx.connector.id, type.key, archived, from, limit);
  const page = rows.slice(0, limit);
  const next = rows.length > limit ? String(rows[limit]!.id) : null;
  const result = await renderRecords(ctx.store.db, ctx.connector.id, type, page, {
    properties: splitList(params.properties),
    propertiesWithHistory: withHistory,
    associations: splitList(params.associations),
  });
  const query: Record<string, string> = { limit: String(limit) };
  if (typeof params.objectType === 'string') query.objectType = params.objectType;
  if (archived) query.archived = 'true';
  return jsonResult(result, pagingMetadata(ctx, entity, 'list', next, {}, query));
}
