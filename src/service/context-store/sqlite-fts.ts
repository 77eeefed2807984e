import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { CoreTables } from '../core/tables.js';
import { insertJsonRows } from './sqlite-bulk.js';

/**
 * Everything SQLite-specific about the context store's full-text index (FTS5) lives here, so a PostgreSQL
 * store can supply its own (tsvector/pg_trgm) without touching the rest.
 *
 * Layout: one contentless FTS5 row per indexed document, rowid = cs_docs.rowid (AUTOINCREMENT, never
 * reused). Its text is the document's words, each prefixed by a token naming (connector, entity, field),
 * so one term lookup is already scoped to one field of one entity of one connector. The words are
 * produced by our own tokenizer (words.ts), so FTS5 query syntax never sees caller text.
 */
export async function createFtsTable(db: Kysely<object>): Promise<void> {
  await sql`CREATE VIRTUAL TABLE IF NOT EXISTS cs_fts USING fts5(body, content='', contentless_delete=1, tokenize='unicode61 remove_diacritics 2')`.execute(
    db,
  );
}

/** Writes the full-text rows of documents (an empty body leaves none); `replacing` are rowids that may have one already. */
export async function writeFtsRows(
  trx: Kysely<CoreTables>,
  rows: readonly { rowid: number; body: string }[],
  replacing: ReadonlySet<number>,
): Promise<void> {
  if (rows.length === 0) return;
  await deleteFtsRows(
    trx,
    rows.map((r) => r.rowid).filter((id) => replacing.has(id)),
  );
  const withText = rows.filter((r) => r.body.length > 0).map((r) => [r.rowid, r.body]);
  await insertJsonRows(trx, 'cs_fts', [], ['rowid', 'body'], withText);
}

/** Removes the full-text rows of some documents. */
export async function deleteFtsRows(trx: Kysely<CoreTables>, rowids: readonly number[]): Promise<void> {
  for (let i = 0; i < rowids.length; i += 500) {
    const part = rowids.slice(i, i + 500);
    await sql`DELETE FROM cs_fts WHERE rowid IN (${sql.join(part)})`.execute(trx);
  }
}

/** A MATCH expression: every term must be present (all) or any one (any); prefix terms end with '*'. */
export function ftsMatch(
  terms: readonly { term: string; prefix: boolean }[],
  mode: 'all' | 'any',
): RawBuilder<boolean> {
  // Terms are [a-z0-9] plus letters only (see words.ts), so double-quoting them is a complete escape.
  const parts = terms.map((t) => `"${t.term.replace(/"/g, '""')}"${t.prefix ? '*' : ''}`);
  const expr = parts.join(mode === 'all' ? ' AND ' : ' OR ');
  return sql<boolean>`d.rowid IN (SELECT rowid FROM cs_fts WHERE cs_fts MATCH ${expr})`;
}
