import type { ActionContext, ActionResult } from '../../../core/connector-type.js';
import { isoNow } from '../dates.js';
import { recordHistory } from '../history-store.js';
import type { ObjectType } from '../object-types.js';
import { validateProperties } from '../property-rules.js';
import { insertRecords, reserveRecordIds, type StoredRecord } from '../records-store.js';
import { assertEmailFree, Touched, writeRecord } from '../write-helpers.js';
import { storeCreateAssociations, type AssociationInput } from './create-associations.js';

/** create: validates the properties, then stores the record and its associations in one transaction. */
export async function createRecord(
  ctx: ActionContext,
  type: ObjectType,
  params: Record<string, unknown>,
): Promise<ActionResult> {
  const now = isoNow(ctx.now());
  const changes = validateProperties(type, (params.properties ?? {}) as Record<string, unknown>, 'create', now);
  const associations = (params.associations ?? []) as AssociationInput[];
  const touched = new Touched();
  const cid = ctx.connector.id;
  return writeRecord(ctx, type, touched, async (trx) => {
    const id = await reserveRecordIds(trx, cid);
    const properties: Record<string, string> = {};
    for (const [k, v] of Object.entries(changes)) if (v !== null) properties[k] = v;
    properties.hs_object_id = String(id);
    properties[type.createDateProp] = now;
    properties[type.modifiedDateProp] = now;
    const created: StoredRecord = {
      id,
      type: type.key,
      properties,
      createdAt: now,
      updatedAt: now,
      archived: false,
      archivedAt: null,
    };
    if (type.key === 'contacts') await assertEmailFree(trx, cid, properties.email, id);
    await insertRecords(trx, cid, [created]);
    const given = Object.keys(properties).filter(
      (k) => k !== 'hs_object_id' && k !== type.createDateProp && k !== type.modifiedDateProp,
    );
    await recordHistory(trx, cid, null, created, given, 'API', 'crm-connector');
    await recordHistory(
      trx,
      cid,
      null,
      created,
      ['hs_object_id', type.createDateProp, type.modifiedDateProp],
      'CALCULATED',
      null,
    );
    await storeCreateAssociations(trx, cid, type, id, associations, touched);
    touched.add(type.key, id);
    await touched.record(ctx, trx);
    return created;
  });
}
