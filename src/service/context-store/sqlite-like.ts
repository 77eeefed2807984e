import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { CoreTables } from '../core/tables.js';
import { insertJsonRows } from './sqlite-bulk.js';

/**
 * The trigram index behind `like` (SQLite FTS5's trigram tokenizer; a PostgreSQL store would use pg_trgm):
 * one row per non-empty text value of an indexed field of a document, rowid = cs_docs.rowid × 1024 + the
 * field's position among the entity's text fields, `scope` the (connector, entity, field) token. A like
 * pattern with a literal run of three characters or more finds its candidates here instead of reading
 * every value of the field.
 */
export const LIKE_FIELDS_PER_DOC = 1024;

/** Creates the table and the trigger that removes a document's rows with the document. */
export async function createLikeTable(db: Kysely<object>): Promise<void> {
  await sql`CREATE VIRTUAL TABLE cs_like USING fts5(scope UNINDEXED, body, tokenize='trigram')`.execute(db);
  await sql`CREATE TRIGGER cs_like_delete AFTER DELETE ON cs_docs BEGIN
    DELETE FROM cs_like WHERE rowid BETWEEN old.rowid * ${sql.lit(LIKE_FIELDS_PER_DOC)} AND old.rowid * ${sql.lit(LIKE_FIELDS_PER_DOC)} + ${sql.lit(LIKE_FIELDS_PER_DOC - 1)};
  END`.execute(db);
}

/** Removes the like rows of documents (by cs_docs rowid) before their values are written again. */
export async function deleteLikeRows(trx: Kysely<CoreTables>, docRowids: readonly number[]): Promise<void> {
  for (let i = 0; i < docRowids.length; i += 200) {
    const ranges = docRowids
      .slice(i, i + 200)
      .map(
        (r) => sql`(rowid BETWEEN ${r * LIKE_FIELDS_PER_DOC} AND ${r * LIKE_FIELDS_PER_DOC + LIKE_FIELDS_PER_DOC - 1})`,
      );
    await sql`DELETE FROM cs_like WHERE ${sql.join(ranges, sql` OR `)}`.execute(trx);
  }
}

/** Writes like rows: [doc rowid, field position, scope token, text]. */
export async function writeLikeRows(
  trx: Kysely<CoreTables>,
  rows: readonly (readonly [number, number, string, string])[],
): Promise<void> {
  await insertJsonRows(
    trx,
    'cs_like',
    [],
    ['rowid', 'scope', 'body'],
    rows.map(([doc, pos, scope, text]) => [doc * LIKE_FIELDS_PER_DOC + pos, scope, text]),
  );
}

/**
 * The documents (alias d) whose value of one indexed field holds a literal window (3 characters or more)
 * of a like value, case-folded: a superset of the like's matches, so callers keep the exact test too.
 */
export function likeCandidates(window: string, scope: string, position: number): RawBuilder<unknown> {
  const phrase = `"${window.replace(/"/g, '""')}"`;
  return sql`d.rowid IN (SELECT rowid / ${sql.lit(LIKE_FIELDS_PER_DOC)} FROM cs_like WHERE cs_like MATCH ${phrase} AND scope = ${scope} AND rowid % ${sql.lit(LIKE_FIELDS_PER_DOC)} = ${position})`;
}
