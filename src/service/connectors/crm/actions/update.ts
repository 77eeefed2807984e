import type { ActionContext, ActionResult } from '../../../core/connector-type.js';
import { isoNow } from '../dates.js';
import { recordHistory } from '../history-store.js';
import type { ObjectType } from '../object-types.js';
import { validateProperties } from '../property-rules.js';
import { saveRecord, type StoredRecord } from '../records-store.js';
import { assertEmailFree, Touched, writeRecord } from '../write-helpers.js';
import { findRecord } from './find-record.js';

/** update: changes only the given properties of a live record ("" clears one), in one transaction. */
export async function updateRecord(
  ctx: ActionContext,
  type: ObjectType,
  idField: string,
  params: Record<string, unknown>,
): Promise<ActionResult> {
  const now = isoNow(ctx.now());
  const changes = validateProperties(type, (params.properties ?? {}) as Record<string, unknown>, 'update', now);
  const cid = ctx.connector.id;
  const touched = new Touched();
  return writeRecord(ctx, type, touched, async (trx) => {
    const before = await findRecord(trx, cid, type, {
      value: String(params[idField]),
      field: idField,
      archived: false,
    });
    const properties = { ...before.properties };
    const changed: string[] = [];
    for (const [k, v] of Object.entries(changes)) {
      if (v === null) {
        if (properties[k] !== undefined) changed.push(k);
        delete properties[k];
      } else {
        if (properties[k] !== v) changed.push(k);
        properties[k] = v;
      }
    }
    properties[type.modifiedDateProp] = now;
    const after: StoredRecord = { ...before, properties, updatedAt: now };
    if (type.key === 'contacts' && changes.email) await assertEmailFree(trx, cid, changes.email, before.id);
    await saveRecord(trx, cid, after);
    await recordHistory(trx, cid, before, after, changed, 'API', 'crm-connector');
    await recordHistory(trx, cid, before, after, [type.modifiedDateProp], 'CALCULATED', null);
    touched.add(type.key, after.id);
    await touched.record(ctx, trx);
    return after;
  });
}
