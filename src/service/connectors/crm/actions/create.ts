import type { ActionContext, ActionResult } from '../../../core/connector-type.js';
import { isoNow } from '../dates.js';
import { recordHistory } from '../history-store.js';
import type { ObjectType } from '../object-types.js';
import { jsonResult } from '../paging.js';
import { validateProperties } from '../property-rules.js';
import { insertRecords, reserveRecordIds, type StoredRecord } from '../records-store.js';
import { renderRecords } from '../record-view.js';
import { assertEmailFree, isEmailConflict, Touched } from '../write-helpers.js';
import { storeCreateAssociations, type AssociationInput } from './create-associations.js';
import { ServiceError } from '../../../core/errors.js';

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
  let rec: StoredRecord;
  try {
    rec = await ctx.store.transaction(async (trx) => {
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
  } catch (err) {
    if (isEmailConflict(err))
      throw new ServiceError('H409', { message: 'Contact already exists' }, { field: 'params.properties.email' });
    throw err;
  }
  touched.notify(ctx);
  const [out] = await renderRecords(ctx.store.db, cid, type, [rec], {
    properties: Object.keys(rec.properties),
    propertiesWithHistory: null,
    associations: null,
  });
  return jsonResult(out, {});
}
