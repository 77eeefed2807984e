import { CompiledQuery, type Kysely } from 'kysely';
import type { IndexDoc } from '../core/connector-type.js';
import { textFields, type FieldCatalog } from './fields.js';
import { deleteFtsRows, writeFtsRows } from './sqlite-fts.js';
import { deleteLikeRows, LIKE_FIELDS_PER_DOC, writeLikeRows } from './sqlite-like.js';
import { docRows, searchableDoc } from './values.js';
import { fieldTokens } from './words.js';
import type { CoreTables } from '../core/tables.js';
import { csDb } from './tables.js';

/** Rows per multi-row INSERT: 9 columns × 1000 rows stays well under SQLite's 32,766 bound parameters. */
const CHUNK = 1000;

async function insertChunks<T>(
  trx: Kysely<CoreTables>,
  rows: readonly T[],
  insert: (part: T[]) => Promise<unknown>,
): Promise<void> {
  for (let i = 0; i < rows.length; i += CHUNK) await insert(rows.slice(i, i + CHUNK));
}

async function docRowids(
  trx: Kysely<CoreTables>,
  connectorId: string,
  entity: string,
  ids: readonly string[],
): Promise<Map<string, number>> {
  const out = new Map<string, number>();
  for (let i = 0; i < ids.length; i += 500) {
    const rows = await csDb(trx)
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

/**
 * One multi-row INSERT of fixed text and bound values. Built directly as a compiled query: composing
 * thousands of sql`` fragments costs more than the insert itself when a large entity is indexed.
 */
async function bulkInsert(trx: Kysely<CoreTables>, head: string, rows: readonly unknown[][]): Promise<void> {
  const width = rows[0]?.length ?? 0;
  const tuple = `(${new Array(width).fill('?').join(', ')})`;
  const text = head + new Array(rows.length).fill(tuple).join(', ');
  await trx.executeQuery(CompiledQuery.raw(text, rows.flat()));
}

/** Removes documents from the index (all their rows); ids not indexed are ignored. */
export async function deleteDocs(
  trx: Kysely<CoreTables>,
  connectorId: string,
  entity: string,
  ids: readonly string[],
): Promise<void> {
  if (ids.length === 0) return;
  const rowids = await docRowids(trx, connectorId, entity, ids);
  await deleteFtsRows(trx, [...rowids.values()]);
  for (let i = 0; i < ids.length; i += 500) {
    const part = ids.slice(i, i + 500);
    for (const table of ['cs_values', 'cs_array_values', 'cs_docs'] as const) {
      await csDb(trx)
        .deleteFrom(table)
        .where('connector_id', '=', connectorId)
        .where('entity', '=', entity)
        .where('id', 'in', part)
        .execute();
    }
  }
}

/** Writes (inserts or replaces) documents in the index, inside the caller's transaction. */
export async function upsertDocs(
  trx: Kysely<CoreTables>,
  connectorId: string,
  entity: string,
  catalog: FieldCatalog,
  docs: readonly IndexDoc[],
): Promise<void> {
  if (docs.length === 0) return;
  const unique = [...new Map(docs.map((d) => [d.id, d])).values()];
  const ids = unique.map((d) => d.id);
  const existing = await docRowids(trx, connectorId, entity, ids);
  // Replace the derived rows of documents already indexed; a first build has none, so nothing to delete.
  const known = ids.filter((id) => existing.has(id));
  for (let i = 0; i < known.length; i += 500) {
    const part = known.slice(i, i + 500);
    for (const table of ['cs_values', 'cs_array_values'] as const) {
      await csDb(trx)
        .deleteFrom(table)
        .where('connector_id', '=', connectorId)
        .where('entity', '=', entity)
        .where('id', 'in', part)
        .execute();
    }
  }
  const json = new Map(
    unique.map((d) => [d.id, JSON.stringify(searchableDoc(catalog, d as unknown as Record<string, unknown>))]),
  );
  // Known documents keep their rowid (their FTS row is rewritten in place); new ones are inserted in bulk.
  for (const id of known)
    await csDb(trx)
      .updateTable('cs_docs')
      .set({ doc: json.get(id) as string })
      .where('rowid', '=', existing.get(id) as number)
      .execute();
  const fresh = ids.filter((id) => !existing.has(id));
  for (let i = 0; i < fresh.length; i += 500) {
    const part = fresh.slice(i, i + 500);
    const rows = (await csDb(trx)
      .insertInto('cs_docs')
      .values(part.map((id) => ({ connector_id: connectorId, entity, id, doc: json.get(id) as string })))
      .returning(['rowid', 'id'])
      .execute()) as { rowid: number; id: string }[];
    for (const r of rows) existing.set(r.id, Number(r.rowid));
  }
  const values: unknown[][] = [];
  const arrays: unknown[][] = [];
  const fts: { rowid: number; body: string }[] = [];
  const likeFields = textFields(catalog);
  const likePosition = new Map(likeFields.map((f, i) => [f, i]));
  const like: [number, number, string, string][] = [];
  const tokens = fieldTokens(connectorId, entity, likeFields);
  for (const doc of unique) {
    const rows = docRows(catalog, doc as unknown as Record<string, unknown>, tokens);
    const rowid = existing.get(doc.id) as number;
    for (const v of rows.values) {
      values.push([connectorId, entity, v.field, doc.id, v.kind, v.num, v.text]);
      const pos = likePosition.get(v.field);
      if (pos !== undefined && pos < LIKE_FIELDS_PER_DOC && v.kind !== 2 && v.text !== '')
        like.push([rowid, pos, tokens.get(v.field) as string, v.text]);
    }
    for (const a of rows.arrays)
      arrays.push([connectorId, entity, a.field, doc.id, a.pos, a.subfield, a.kind, a.num, a.text]);
    fts.push({ rowid: existing.get(doc.id) as number, body: rows.ftsBody });
  }
  await insertChunks(trx, values, (part) =>
    bulkInsert(trx, 'INSERT INTO cs_values (connector_id, entity, field, id, kind, num, text) VALUES ', part),
  );
  await insertChunks(trx, arrays, (part) =>
    bulkInsert(
      trx,
      'INSERT INTO cs_array_values (connector_id, entity, field, id, pos, subfield, kind, num, text) VALUES ',
      part,
    ),
  );
  await writeFtsRows(trx, fts, new Set(known.map((id) => existing.get(id) as number)));
  await deleteLikeRows(
    trx,
    known.map((id) => existing.get(id) as number),
  );
  await writeLikeRows(trx, like);
}
