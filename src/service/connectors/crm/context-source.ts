import { sql } from 'kysely';
import type { ActionContext, ContextStoreSource, IndexDoc } from '../../core/connector-type.js';
import { associationsFrom } from './association-store.js';
import { crmDb } from './db.js';
import { ENTITIES, RECORD_ENTITIES, isRecordEntity } from './entities.js';
import { getRecordsByIds, rowToRecord, type StoredRecord } from './records-store.js';

function spec(entity: string) {
  if (!isRecordEntity(entity)) throw new Error(`the CRM context store has no entity "${entity}"`);
  return ENTITIES[entity];
}

/** Builds the searchable shape of records: the spec's properties.* fields and association arrays. */
async function toDocs(ctx: ActionContext, entity: string, recs: readonly StoredRecord[]): Promise<IndexDoc[]> {
  const e = spec(entity);
  const arrays = e.contextArrays.filter((a) => a !== 'line_items');
  const rows = await associationsFrom(
    ctx.store.db,
    ctx.connector.id,
    recs.map((r) => r.id),
    arrays,
  );
  const linked = new Map<number, Record<string, string[]>>();
  const primaryCompany = new Map<number, string>();
  for (const row of rows) {
    let per = linked.get(row.from_id);
    if (!per) linked.set(row.from_id, (per = {}));
    const list = (per[row.to_type] ??= []);
    const id = String(row.to_id);
    if (!list.includes(id)) list.push(id);
    if (entity === 'contacts' && row.to_type === 'companies' && row.type_id === 1) primaryCompany.set(row.from_id, id);
  }
  return recs.map((r) => {
    const properties: Record<string, string | null> = {};
    for (const name of e.contextProperties) properties[name] = r.properties[name] ?? null;
    if (entity === 'contacts' && properties.associatedcompanyid === null) {
      properties.associatedcompanyid = primaryCompany.get(r.id) ?? linked.get(r.id)?.companies?.[0] ?? null;
    }
    const doc: Record<string, unknown> = {
      id: String(r.id),
      archived: r.archived,
      createdAt: r.createdAt,
      updatedAt: r.updatedAt,
      properties,
    };
    for (const a of e.contextArrays) doc[a] = linked.get(r.id)?.[a] ?? [];
    return doc as IndexDoc;
  });
}

/** The CRM's records as the context store indexes them (the nine standard entities, archived included). */
export const crmContextSource: ContextStoreSource = {
  entities: RECORD_ENTITIES,
  arrayFields: (entity) => spec(entity).contextArrays,
  propertyFields: (entity) => spec(entity).contextProperties,
  async scan(ctx, entity, after, limit) {
    spec(entity);
    const rows = await crmDb(ctx.store.db)
      .selectFrom('crm_records')
      .selectAll()
      .where('connector_id', '=', ctx.connector.id)
      .where('object_type', '=', entity)
      .where('id', '>', after === null ? 0 : Number(after))
      .orderBy('id')
      .limit(limit)
      .execute();
    const docs = await toDocs(ctx, entity, rows.map(rowToRecord));
    return { docs, next: rows.length === limit ? String(rows[rows.length - 1]!.id) : null };
  },
  async read(ctx, entity, ids) {
    const numeric = ids.filter((id) => /^\d{1,15}$/.test(id)).map(Number);
    const recs = (await getRecordsByIds(ctx.store.db, ctx.connector.id, numeric)).filter((r) => r.type === entity);
    return toDocs(ctx, entity, recs);
  },
  async count(ctx, entity) {
    spec(entity);
    const row = await crmDb(ctx.store.db)
      .selectFrom('crm_records')
      .select(sql<number>`count(*)`.as('n'))
      .where('connector_id', '=', ctx.connector.id)
      .where('object_type', '=', entity)
      .executeTakeFirst();
    return Number(row?.n ?? 0);
  },
};
