import type { ActionContext, ActionResult } from '../../../core/connector-type.js';
import type { ObjectType } from '../object-types.js';
import { jsonResult } from '../paging.js';
import { renderRecords, splitList } from '../record-view.js';
import { findRecord } from './find-record.js';

/** get (and objects get): one record by id or idProperty; archived=true reads only archived records. */
export async function getRecordAction(
  ctx: ActionContext,
  type: ObjectType,
  idField: string,
  params: Record<string, unknown>,
): Promise<ActionResult> {
  const rec = await findRecord(ctx.store.db, ctx.connector.id, type, {
    value: String(params[idField]),
    field: idField,
    idProperty: typeof params.idProperty === 'string' ? params.idProperty : undefined,
    archived: params.archived === true,
  });
  const [out] = await renderRecords(ctx.store.db, ctx.connector.id, type, [rec], {
    properties: splitList(params.properties),
    propertiesWithHistory: splitList(params.propertiesWithHistory),
    associations: splitList(params.associations),
  });
  return jsonResult(out, {});
}
