import type { Kysely } from 'kysely';
import { ServiceError } from '../../core/errors.js';
import { compileSchema } from '../../core/params-validator.js';
import { ajvErrorsToItems } from '../../core/validation-items.js';
import type { ActionContext } from '../../core/connector-type.js';
import { defaultType, findPlatformType, resolveTypeRef } from './association-types.js';
import { insertAssociation } from './association-store.js';
import { normalizeDate } from './dates.js';
import { crmDb } from './db.js';
import { RECORD_ENTITIES } from './entities.js';
import { fixturesSchema, type FixtureItem, type CrmFixtures } from './fixtures-schema.js';
import { customType, findSchema, resolveObjectType, standardType, type ObjectType } from './object-types.js';
import { validateProperties } from './property-rules.js';
import { advanceRecordIds, insertRecords, reserveRecordIds, type StoredRecord } from './records-store.js';
import { insertSchema } from './schema-store.js';
import type { CoreTables } from '../../core/tables.js';

function bad(field: string, message: string): ServiceError {
  return new ServiceError('H400_INVALID_FIXTURES', { message: `${field}: ${message}` }, { field });
}

/**
 * Loads a CRM dataset (see docs/crm.md, "Fixtures") in one transaction: schemas, records of the nine
 * entities and of custom objects, then associations. The first bad item fails the whole load with its
 * path (e.g. "contacts[3].properties.email"); nothing is written then.
 */
export async function loadCrmFixtures(ctx: ActionContext, data: unknown): Promise<void> {
  const validate = compileSchema(fixturesSchema);
  if (!validate(data)) {
    const items = ajvErrorsToItems(validate.errors ?? [], 'data');
    throw new ServiceError(
      'H400_INVALID_FIXTURES',
      { message: `CRM fixtures are invalid: ${items.map((i) => i.message).join('; ')}` },
      { items },
    );
  }
  const fx = data as CrmFixtures;
  const cid = ctx.connector.id;
  const now = ctx.now().toISOString();
  const touched = new Map<string, string[]>();
  await ctx.store.transaction(async (trx) => {
    for (const [i, s] of (fx.schemas ?? []).entries()) await insertSchema(trx, cid, s, now, `schemas[${i}]`);
    // Every group of items with its type and path, standard entities first.
    const groups: { type: ObjectType; items: FixtureItem[]; path: string }[] = [];
    for (const name of RECORD_ENTITIES)
      if (fx[name]) groups.push({ type: standardType(name), items: fx[name]!, path: name });
    for (const [ref, items] of Object.entries(fx.objects ?? {})) {
      const schema = await findSchema(trx, cid, ref);
      if (!schema) throw bad(`objects.${ref}`, `no custom object schema "${ref}" (define it under schemas)`);
      groups.push({ type: customType(schema), items, path: `objects.${ref}` });
    }
    const ids = await assignIds(trx, cid, groups);
    const emails = new Map<string, string>();
    for (const g of groups) {
      const records: StoredRecord[] = g.items.map((item, k) =>
        toRecord(g.type, item, ids.get(item)!, now, `${g.path}[${k}]`, emails),
      );
      await insertRecords(trx, cid, records);
      touched.set(
        g.type.key,
        records.map((r) => String(r.id)),
      );
    }
    for (const [i, a] of (fx.associations ?? []).entries()) await storeAssociation(trx, cid, a, `associations[${i}]`);
    for (const [entity, ids] of touched)
      if ((RECORD_ENTITIES as readonly string[]).includes(entity)) await ctx.recordChanges?.(trx, entity, ids);
  });
  for (const [entity, ids] of touched)
    if ((RECORD_ENTITIES as readonly string[]).includes(entity)) ctx.notifyChange(entity, ids);
}

async function assignIds(
  trx: Kysely<CoreTables>,
  cid: string,
  groups: { items: FixtureItem[]; path: string }[],
): Promise<Map<FixtureItem, number>> {
  const out = new Map<FixtureItem, number>();
  const taken = new Set<number>();
  let maxGiven = 0;
  for (const g of groups) {
    for (const [k, item] of g.items.entries()) {
      if (item.id === undefined) continue;
      const id = Number(item.id);
      const exists = await crmDb(trx)
        .selectFrom('crm_records')
        .select('id')
        .where('connector_id', '=', cid)
        .where('id', '=', id)
        .executeTakeFirst();
      if (taken.has(id) || exists) throw bad(`${g.path}[${k}].id`, `id ${item.id} is already used`);
      taken.add(id);
      out.set(item, id);
      maxGiven = Math.max(maxGiven, id);
    }
  }
  // Items without an id get ids after everything used so far (given ids included).
  await advanceRecordIds(trx, cid, maxGiven + 1);
  const missing = groups.reduce((n, g) => n + g.items.filter((item) => !out.has(item)).length, 0);
  let next = await reserveRecordIds(trx, cid, missing);
  for (const g of groups) for (const item of g.items) if (!out.has(item)) out.set(item, next++);
  return out;
}

function toRecord(
  type: ObjectType,
  item: FixtureItem,
  id: number,
  now: string,
  path: string,
  emails: Map<string, string>,
): StoredRecord {
  const changes = validateProperties(type, item.properties, 'fixture', now, `${path}.properties`);
  const createdAt = item.createdAt === undefined ? now : normalizeDate(item.createdAt);
  if (!createdAt) throw bad(`${path}.createdAt`, `"${item.createdAt}" is not an ISO 8601 date`);
  const updatedAt = item.updatedAt === undefined ? createdAt : normalizeDate(item.updatedAt);
  if (!updatedAt) throw bad(`${path}.updatedAt`, `"${item.updatedAt}" is not an ISO 8601 date`);
  const properties: Record<string, string> = {};
  for (const [k, v] of Object.entries(changes)) if (v !== null) properties[k] = v;
  properties.hs_object_id = String(id);
  properties[type.createDateProp] = createdAt;
  properties[type.modifiedDateProp] = updatedAt;
  if (type.key === 'contacts' && properties.email) {
    const key = properties.email.toLowerCase();
    if (emails.has(key))
      throw bad(`${path}.properties.email`, `email "${properties.email}" is already used by ${emails.get(key)}`);
    emails.set(key, path);
  }
  const archived = item.archived === true;
  return {
    id,
    type: type.key,
    properties,
    createdAt,
    updatedAt,
    archived,
    archivedAt: archived ? (normalizeDate(item.archivedAt ?? updatedAt) ?? updatedAt) : null,
  };
}

async function storeAssociation(
  trx: Kysely<CoreTables>,
  cid: string,
  a: NonNullable<CrmFixtures['associations']>[number],
  path: string,
): Promise<void> {
  const ends: { type: ObjectType; id: number }[] = [];
  for (const side of ['from', 'to'] as const) {
    const ref = a[side];
    const type = await resolveObjectType(trx, cid, ref.type);
    if (!type) throw bad(`${path}.${side}.type`, `unknown object type "${ref.type}"`);
    const row = await crmDb(trx)
      .selectFrom('crm_records')
      .select('object_type')
      .where('connector_id', '=', cid)
      .where('id', '=', Number(ref.id))
      .executeTakeFirst();
    if (!row || row.object_type !== type.key)
      throw bad(`${path}.${side}.id`, `no ${type.key} record with id ${ref.id}`);
    ends.push({ type, id: Number(ref.id) });
  }
  const [from, to] = ends as [{ type: ObjectType; id: number }, { type: ObjectType; id: number }];
  const category = a.category ?? 'PLATFORM_DEFINED';
  let typeId: number;
  let inverse: number;
  if (category === 'USER_DEFINED') {
    if (typeof a.typeId !== 'number') throw bad(`${path}.typeId`, 'USER_DEFINED associations need a numeric typeId');
    typeId = inverse = a.typeId;
  } else {
    const id = a.typeId === undefined ? undefined : resolveTypeRef(a.typeId, from.type, to.type);
    const def =
      a.typeId === undefined
        ? defaultType(from.type, to.type)
        : id === null || id === undefined
          ? null
          : findPlatformType(from.type, to.type, id);
    if (!def)
      throw bad(
        `${path}.typeId`,
        `no PLATFORM_DEFINED association type ${a.typeId ?? '(default)'} from ${from.type.key} to ${to.type.key}`,
      );
    typeId = def.typeId;
    inverse = def.inverseId;
  }
  await insertAssociation(
    trx,
    cid,
    { id: from.id, type: from.type.key },
    { id: to.id, type: to.type.key },
    category,
    typeId,
    inverse,
  );
  // As with the API: a labeled (or USER_DEFINED) association comes with the pair's unlabeled one.
  const def = defaultType(from.type, to.type);
  if (def && !(category === 'PLATFORM_DEFINED' && typeId === def.typeId)) {
    await insertAssociation(
      trx,
      cid,
      { id: from.id, type: from.type.key },
      { id: to.id, type: to.type.key },
      'PLATFORM_DEFINED',
      def.typeId,
      def.inverseId,
    );
  }
}
