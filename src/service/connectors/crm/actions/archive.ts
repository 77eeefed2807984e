import type { ActionContext, ActionResult } from '../../../core/connector-type.js';
import { isoNow } from '../dates.js';
import type { ObjectType } from '../object-types.js';
import { jsonResult } from '../paging.js';
import { getRecord, saveRecord } from '../records-store.js';
import { Touched } from '../write-helpers.js';
import { findRecord } from './find-record.js';

/**
 * delete (notes, calls, emails, meetings, tasks): a soft delete that archives the record and stamps
 * archivedAt. Deleting an already archived record answers the same result again; an unknown id is a 404.
 */
export async function archiveRecord(
  ctx: ActionContext,
  type: ObjectType,
  idField: string,
  params: Record<string, unknown>,
): Promise<ActionResult> {
  const cid = ctx.connector.id;
  const value = String(params[idField]);
  const now = isoNow(ctx.now());
  const touched = new Touched();
  const rec = await ctx.store.transaction(async (trx) => {
    const already = /^\d{1,15}$/.test(value) ? await getRecord(trx, cid, type.key, Number(value), true) : null;
    if (already) return already;
    const live = await findRecord(trx, cid, type, { value, field: idField, archived: false });
    const archived = { ...live, archived: true, archivedAt: now };
    await saveRecord(trx, cid, archived);
    touched.add(type.key, archived.id);
    await touched.record(ctx, trx);
    return archived;
  });
  touched.add(type.key, rec.id);
  touched.notify(ctx);
  return jsonResult({ id: String(rec.id), archived: true, archivedAt: rec.archivedAt }, {});
}
