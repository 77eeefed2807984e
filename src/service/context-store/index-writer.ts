import { sql, type Kysely } from 'kysely';
import type { IndexDoc } from '../connectors/types.js';
import type { FieldCatalog } from './fields.js';
import { deleteFtsRows, writeFtsRows } from './sqlite-fts.js';
import { docRows, searchableDoc } from './values.js';

/** Rows per multi-row INSERT: well under SQLite's bound-parameter limit with 9 columns. */
const CHUNK = 300;

async function insertChunks<T>(trx: Kysely<any>, rows: readonly T[], insert: (part: T[]) => Promise<unknown>): Promise<void> {
  for (let i = 0; i < rows.length; i += CHUNK) await insert(rows.slice(i, i + CHUNK));
}

async function docRowids(trx: Kysely<any>, connectorId: string, entity: string, ids: readonly string[]): Promise<Map<string, number>> {
  const out = new Map<string, number>();
  for (let i = 0; i < ids.length; i += 500) {
    const rows = await trx
      .selectFrom('cs_docs')
      .select(['rowid', 'id'])
      .where('connector_id', '=', connectorId)
      .where('entity', '=', entity)
      .where('id', 'in', ids.slice(i, i + 500))
      .execute();
    for (const r of rows as { rowid: number; id: string }[]) out.set(r.id, r.rowid);
  }
  return out;
}

/** Removes documents from the index (all their rows); ids not indexed are ignored. */
export async function deleteDocs(trx: Kysely<any>, connectorId: string, entity: string, ids: readonly string[]): Promise<void> {
  if (ids.length === 0) return;
  const rowids = await docRowids(trx, connectorId, entity, ids);
  await deleteFtsRows(trx, [...rowids.values()]);
  for (let i = 0; i < ids.length; i += 500) {
    const part = ids.slice(i, i + 500);
    for (const table of ['cs_values', 'cs_array_values', 'cs_docs']) {
      await trx.deleteFrom(table).where('connector_id', '=', connectorId).where('entity', '=', entity).where('id', 'in', part).execute();
    }
  }
}

/** Writes (inserts or replaces) documents in the index, inside the caller's transaction. */
export async function upsertDocs(trx: Kysely<any>, connectorId: string, entity: string, catalog: FieldCatalog, docs: readonly IndexDoc[]): Promise<void> {
  if (docs.length === 0) return;
  const unique = [...new Map(docs.map((d) => [d.id, d])).values()];
  const ids = unique.map((d) => d.id);
  const existing = await docRowids(trx, connectorId, entity, ids);
  // Replace the derived rows wholesale; the document row keeps its rowid so the FTS row can be rewritten in place.
  for (let i = 0; i < ids.length; i += 500) {
    const part = ids.slice(i, i + 500);
    for (const table of ['cs_values', 'cs_array_values']) {
      await trx.deleteFrom(table).where('connector_id', '=', connectorId).where('entity', '=', entity).where('id', 'in', part).execute();
    }
  }
  const values: unknown[][] = [];
  const arrays: unknown[][] = [];
  const fts: { rowid: number; body: string }[] = [];
  for (const doc of unique) {
    const plain = doc as unknown as Record<string, unknown>;
    const json = JSON.stringify(searchableDoc(catalog, plain));
    let rowid = existing.get(doc.id);
    if (rowid === undefined) {
      const r = await trx
        .insertInto('cs_docs')
        .values({ connector_id: connectorId, entity, id: doc.id, doc: json })
        .returning('rowid')
        .executeTakeFirstOrThrow();
      rowid = Number((r as { rowid: number }).rowid);
    } else {
      await trx.updateTable('cs_docs').set({ doc: json }).where('rowid', '=', rowid).execute();
    }
    const rows = docRows(connectorId, entity, catalog, plain);
    for (const v of rows.values) values.push([connectorId, entity, v.field, doc.id, v.kind, v.num, v.text]);
    for (const a of rows.arrays) arrays.push([connectorId, entity, a.field, doc.id, a.pos, a.subfield, a.kind, a.num, a.text]);
    fts.push({ rowid, body: rows.ftsBody });
  }
  await insertChunks(trx, values, (part) =>
    sql`INSERT INTO cs_values (connector_id, entity, field, id, kind, num, text) VALUES ${sql.join(part.map((r) => sql`(${sql.join(r)})`))}`.execute(trx),
  );
  await insertChunks(trx, arrays, (part) =>
    sql`INSERT INTO cs_array_values (connector_id, entity, field, id, pos, subfield, kind, num, text) VALUES ${sql.join(part.map((r) => sql`(${sql.join(r)})`))}`.execute(trx),
  );
  await writeFtsRows(trx, fts);
}
