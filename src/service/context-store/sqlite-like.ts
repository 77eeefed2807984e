import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { CoreTables } from '../core/tables.js';
import { insertJsonRows } from './sqlite-bulk.js';
import type { Comparable } from './values.js';

/**
 * The trigram index behind `like` (SQLite FTS5's trigram tokenizer; a PostgreSQL store would use pg_trgm):
 * one row per document, rowid = its cs_docs rowid, holding the non-empty text values of the entity's text
 * fields (LIKE_SEPARATOR between them). A like pattern with a literal run of three characters or more finds
 * its candidate documents here instead of reading every value of the field.
 *
 * Contentless (the texts are in cs_values already) and detail=none (no positions): a window is looked up as
 * all of its trigrams rather than as a phrase. That is a superset of the documents whose field matches (the
 * trigrams may be in another field, or span two), and callers narrow it with the exact test anyway. One row
 * per document rather than one per field: a trigram that several fields of a document share (a record's
 * dates, its id in two fields) is one posting: at 100,000 contacts the table took a third of the space and 0.4 ×
 * the build time of one row per field.
 */

/** Between the values of a document's row: a character that like patterns rarely hold. */
export const LIKE_SEPARATOR = '\n';

/** A document's row of the trigram index from its text fields' values: their distinct texts; null for none. */
export function likeBody(values: readonly Comparable[]): string | null {
  const texts = new Set<string>();
  for (const v of values) if (v.kind !== 2 && v.text !== '') texts.add(v.text);
  return texts.size === 0 ? null : [...texts].join(LIKE_SEPARATOR);
}

/** Fields per document in the layouts of migrations 036 and 038 (rowid = document × 1024 + the field's position). */
export const LIKE_FIELDS_PER_DOC_V2 = 1024;

/** The rowid range of one document's like rows in those layouts, for their trigger. */
const rangeOf = (doc: string) =>
  `rowid BETWEEN ${doc} * ${LIKE_FIELDS_PER_DOC_V2} AND ${doc} * ${LIKE_FIELDS_PER_DOC_V2} + ${LIKE_FIELDS_PER_DOC_V2 - 1}`;

/** The table as migration 036 made it (scope column, positions, a content table), for migrations 036–037. */
export async function createLikeTableV1(db: Kysely<object>): Promise<void> {
  await sql`CREATE VIRTUAL TABLE cs_like USING fts5(scope UNINDEXED, body, tokenize='trigram')`.execute(db);
  await sql`CREATE TRIGGER cs_like_delete AFTER DELETE ON cs_docs BEGIN
    DELETE FROM cs_like WHERE ${sql.raw(rangeOf('old.rowid'))};
  END`.execute(db);
}

/** The table as migration 038 made it (contentless, one row per field), for migration 038. */
export async function createLikeTableV2(db: Kysely<object>): Promise<void> {
  await sql`CREATE VIRTUAL TABLE cs_like USING fts5(body, content='', contentless_delete=1, detail=none, tokenize='trigram')`.execute(
    db,
  );
  await sql`CREATE TRIGGER cs_like_delete AFTER DELETE ON cs_docs BEGIN
    DELETE FROM cs_like WHERE ${sql.raw(rangeOf('old.rowid'))};
  END`.execute(db);
}

/** Creates the table and the trigger that removes a document's row with the document. */
export async function createLikeTable(db: Kysely<object>): Promise<void> {
  await sql`CREATE VIRTUAL TABLE cs_like USING fts5(body, content='', contentless_delete=1, detail=none, tokenize='trigram')`.execute(
    db,
  );
  await sql`CREATE TRIGGER cs_like_delete AFTER DELETE ON cs_docs BEGIN
    DELETE FROM cs_like WHERE rowid = old.rowid;
  END`.execute(db);
}

/** Removes the like rows of documents (by cs_docs rowid) before their values are written again. */
export async function deleteLikeRows(trx: Kysely<CoreTables>, docRowids: readonly number[]): Promise<void> {
  for (let i = 0; i < docRowids.length; i += 500)
    await sql`DELETE FROM cs_like WHERE rowid IN (${sql.join(docRowids.slice(i, i + 500))})`.execute(trx);
}

/** Writes like rows: [doc rowid, likeBody of its text values]. */
export async function writeLikeRows(
  trx: Kysely<CoreTables>,
  rows: readonly (readonly [number, string])[],
): Promise<void> {
  await insertJsonRows(trx, 'cs_like', [], ['rowid', 'body'], rows);
}

/** The trigrams of a text in characters, as the trigram tokenizer counts them: "😀" is one, not two UTF-16 units. */
export function trigrams(text: string): string[] {
  const chars = Array.from(text);
  const out: string[] = [];
  for (let i = 0; i + 3 <= chars.length; i++) out.push(chars.slice(i, i + 3).join(''));
  return out;
}

/**
 * The documents (alias d) whose row holds every trigram of a literal window (3 characters or more) of a like
 * value, case-folded: a superset of the like's matches, so callers keep the exact test too. Null when the
 * window has fewer than three characters (a trigram index cannot answer it).
 */
export function likeCandidates(window: string): RawBuilder<unknown> | null {
  const grams = [...new Set(trigrams(window))];
  if (grams.length === 0) return null;
  const match = grams.map((g) => `"${g.replace(/"/g, '""')}"`).join(' AND ');
  return sql`d.rowid IN (SELECT rowid FROM cs_like WHERE cs_like MATCH ${match})`;
}
