import type { Kysely } from 'kysely';
import { ServiceError } from '../../../core/errors.js';
import type { ActionContext, ActionResult } from '../../../core/connector-type.js';
import { findPlatformType, labelOf, platformTypes, resolveTypeRef, typeNamesOf } from '../association-types.js';
import {
  associatedIdsPage,
  associationsBetween,
  deleteAssociationsBetween,
  insertAssociation,
} from '../association-store.js';
import { isoNow } from '../dates.js';
import { resolveObjectType, type ObjectType } from '../object-types.js';
import { jsonResult, pageLimit, pagingMetadata, parseAfter, rejectCursor } from '../paging.js';
import type { StoredRecord } from '../records-store.js';
import { Touched } from '../write-helpers.js';
import { ensureDefault } from './create-associations.js';
import { findRecord } from './find-record.js';
import type { CoreTables } from '../../../core/tables.js';

/** Associations list: default and maximum page size (spec). */
export const ASSOCIATIONS_LIMIT = 500;

async function typeParam(
  db: Kysely<CoreTables>,
  connectorId: string,
  params: Record<string, unknown>,
  key: string,
): Promise<ObjectType> {
  const ref = String(params[key]);
  const t = await resolveObjectType(db, connectorId, ref);
  if (!t) {
    throw new ServiceError('H400_UNKNOWN_OBJECT_TYPE', { field: `params.${key}`, ref }, { field: `params.${key}` });
  }
  return t;
}

async function endpoint(
  db: Kysely<CoreTables>,
  connectorId: string,
  params: Record<string, unknown>,
  side: 'from' | 'to',
): Promise<{ type: ObjectType; rec: StoredRecord }> {
  const type = await typeParam(db, connectorId, params, `${side}ObjectType`);
  const rec = await findRecord(db, connectorId, type, {
    value: String(params[`${side}ObjectId`]),
    field: `${side}ObjectId`,
    archived: false,
  });
  return { type, rec };
}

/** associations list: the associations of one record to one object type, grouped by target id, paged with after. */
export async function listAssociations(ctx: ActionContext, params: Record<string, unknown>): Promise<ActionResult> {
  rejectCursor(params);
  const db = ctx.store.db;
  const cid = ctx.connector.id;
  const limit = pageLimit(params, ASSOCIATIONS_LIMIT, ASSOCIATIONS_LIMIT);
  const from = await endpoint(db, cid, params, 'from');
  const toType = await typeParam(db, cid, params, 'toObjectType');
  const ids = await associatedIdsPage(db, cid, from.rec.id, toType.key, parseAfter(params) ?? 0, limit);
  const pageIds = ids.slice(0, limit);
  const next = ids.length > limit ? String(ids[limit]) : null;
  const rows = await associationsBetween(db, cid, from.rec.id, toType.key, pageIds);
  const byTarget = new Map<number, { category: string; typeId: number; label: string | null }[]>();
  for (const id of pageIds) byTarget.set(id, []);
  for (const row of rows) {
    byTarget.get(row.to_id)?.push({
      category: row.category,
      typeId: row.type_id,
      label: labelOf(from.type, toType, row.category, row.type_id),
    });
  }
  const meta = pagingMetadata(
    ctx,
    'associations',
    'list',
    next,
    {},
    {
      fromObjectType: String(params.fromObjectType),
      fromObjectId: String(params.fromObjectId),
      toObjectType: String(params.toObjectType),
      limit: String(limit),
    },
  );
  const result: Record<string, unknown> = {
    results: [...byTarget].map(([toObjectId, associationTypes]) => ({ toObjectId, associationTypes })),
  };
  // Like upstream, paging appears only when another page exists.
  if (next !== null) result.paging = { next: { after: next, link: meta.next_link } };
  return jsonResult(result, meta);
}

/** associations create: a labeled (or default) association between two live records; idempotent. */
export async function createAssociation(ctx: ActionContext, params: Record<string, unknown>): Promise<ActionResult> {
  const requestedAt = isoNow(ctx.now());
  const cid = ctx.connector.id;
  const category = String(params.associationCategory);
  const touched = new Touched();
  const out = await ctx.store.transaction(async (trx) => {
    const from = await endpoint(trx, cid, params, 'from');
    const to = await endpoint(trx, cid, params, 'to');
    const typeId = typeIdParam(params.associationTypeId, category, from.type, to.type);
    let inverse = typeId;
    let labeled = true;
    if (category === 'PLATFORM_DEFINED') {
      const def = findPlatformType(from.type, to.type, typeId);
      if (!def) {
        const allowed = platformTypes(from.type, to.type).map((d) => d.typeId);
        throw new ServiceError(
          'H400_INVALID_ASSOCIATION_TYPE',
          {
            message: `associationTypeId ${typeId} is not a PLATFORM_DEFINED type from ${from.type.key} to ${to.type.key}; allowed: ${allowed.join(', ') || 'none'}`,
          },
          { field: 'params.associationTypeId', details: { allowed } },
        );
      }
      inverse = def.inverseId;
      labeled = def.label !== null;
    }
    await insertAssociation(
      trx,
      cid,
      { id: from.rec.id, type: from.type.key },
      { id: to.rec.id, type: to.type.key },
      category,
      typeId,
      inverse,
    );
    if (labeled) await ensureDefault(trx, cid, from.type, from.rec.id, to.type, to.rec.id);
    touched.add(from.type.key, from.rec.id);
    touched.add(to.type.key, to.rec.id);
    await touched.record(ctx, trx);
    const rows = await associationsBetween(trx, cid, from.rec.id, to.type.key, [to.rec.id]);
    const labels = rows
      .map((r) => labelOf(from.type, to.type, r.category, r.type_id))
      .filter((l): l is string => l !== null);
    return {
      fromObjectTypeId: from.type.typeId,
      fromObjectId: from.rec.id,
      toObjectTypeId: to.type.typeId,
      toObjectId: to.rec.id,
      labels,
    };
  });
  touched.notify(ctx);
  const done = isoNow(ctx.now());
  return jsonResult({ status: 'COMPLETE', results: [out], requestedAt, startedAt: requestedAt, completedAt: done }, {});
}

/** associationTypeId as a number, or a PLATFORM_DEFINED type name of the pair (deal_to_company). */
function typeIdParam(ref: unknown, category: string, from: ObjectType, to: ObjectType): number {
  const id = category === 'PLATFORM_DEFINED' ? resolveTypeRef(ref, from, to) : typeof ref === 'number' ? ref : null;
  if (id !== null) return id;
  const names = category === 'PLATFORM_DEFINED' ? typeNamesOf(from, to) : [];
  throw new ServiceError(
    'H400',
    {
      message:
        category === 'PLATFORM_DEFINED'
          ? `associationTypeId "${String(ref)}" is not a PLATFORM_DEFINED type name from ${from.key} to ${to.key}; names for this pair: ${names.join(', ') || 'none'}`
          : 'associationTypeId must be a number for USER_DEFINED associations (names are for PLATFORM_DEFINED types)',
    },
    { field: 'params.associationTypeId', details: { allowed_names: names } },
  );
}

/**
 * associations delete: removes every association (default and labeled) between the two records, in
 * both directions. Answers {status: "COMPLETE", deleted: n}, n = association types removed as seen from
 * the from record (0 when there were none: deleting again is harmless).
 */
export async function deleteAssociations(ctx: ActionContext, params: Record<string, unknown>): Promise<ActionResult> {
  const cid = ctx.connector.id;
  const touched = new Touched();
  const deleted = await ctx.store.transaction(async (trx) => {
    const from = await endpoint(trx, cid, params, 'from');
    const to = await endpoint(trx, cid, params, 'to');
    const n = await deleteAssociationsBetween(
      trx,
      cid,
      { id: from.rec.id, type: from.type.key },
      { id: to.rec.id, type: to.type.key },
    );
    touched.add(from.type.key, from.rec.id);
    touched.add(to.type.key, to.rec.id);
    await touched.record(ctx, trx);
    return n;
  });
  touched.notify(ctx);
  return jsonResult({ status: 'COMPLETE', deleted }, {});
}
