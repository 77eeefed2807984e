import { sql, type Kysely } from 'kysely';
import type { CoreTables } from '../core/tables.js';
import type { Cond } from './filter-ast.js';
import { LIKE_SEPARATOR, trigrams } from './sqlite-like.js';
import { jsonPathOf } from './fields.js';

/** Documents read to judge how common each trigram is. */
const SAMPLE = 200;
/** A window whose rarest-but-one trigram is in more than this share of the sample reads too much of the index. */
const TOO_COMMON = 0.2;

/**
 * How each `like` of a filter reaches the trigram index: the literal window (3 to 5 characters of one of
 * its literal runs) to look up as its trigrams, or null to read the field's values instead. Reading a
 * trigram's posting list costs in proportion to how many documents hold it (~35 ms for one in every
 * document of a million), so the window is made of trigrams that are rare in a sample of the documents'
 * rows of that index (all their text values, sqlite-like.ts): "%@co12.example" looks up "o12." (a few
 * thousand documents), never "exam" (every email).
 */
export async function planLikes(
  db: Kysely<CoreTables>,
  connectorId: string,
  entity: string,
  filter: Cond | null,
  indexed: readonly string[],
): Promise<Map<Cond, string | null>> {
  const likes: (Cond & { kind: 'like' })[] = [];
  const walk = (c: Cond) => {
    if (c.kind === 'like' && indexed.includes(c.field)) likes.push(c);
    else if (c.kind === 'and' || c.kind === 'or') c.items.forEach(walk);
    else if (c.kind === 'not') walk(c.item);
  };
  if (filter) walk(filter);
  const out = new Map<Cond, string | null>();
  if (likes.length === 0) return out;
  // What the index holds for the first documents, read from their stored JSON by SQLite: reading their value
  // rows, or parsing the documents in JavaScript, took three times longer.
  const paths = indexed.map(jsonPathOf).filter((p) => p !== null);
  if (paths.length === 0) return new Map(likes.map((like) => [like, null]));
  const rows = await sql<{ text: string | null }>`SELECT lower(concat_ws(${LIKE_SEPARATOR}, ${sql.join(
    paths.map((p) => sql`doc->>${p}`),
  )})) AS text FROM cs_docs WHERE connector_id = ${connectorId} AND entity = ${entity} LIMIT ${SAMPLE}`.execute(db);
  const sample = rows.rows.map((r) => r.text ?? '');
  for (const like of likes) out.set(like, likeWindow(like.value, sample));
  return out;
}

/** The literal window of a like value to look up (see planLikes), or null when every window is common. */
export function likeWindow(value: string, sample: readonly string[]): string | null {
  const share = new Map<string, number>();
  const shareOf = (gram: string): number => {
    let s = share.get(gram);
    if (s === undefined) {
      s = sample.length === 0 ? 0 : sample.filter((t) => t.includes(gram)).length / sample.length;
      share.set(gram, s);
    }
    return s;
  };
  let best: { window: string; cost: number } | null = null;
  // A NUL cannot be written in an FTS query: it splits runs like a wildcard does.
  for (const run of value.toLowerCase().split(/[%\u0000]/)) {
    // In characters, as the trigram tokenizer counts them: "😀" is one, not two UTF-16 units.
    const chars = Array.from(run);
    for (let len = 5; len >= 3; len--) {
      for (let i = 0; i + len <= chars.length; i++) {
        const window = chars.slice(i, i + len).join('');
        // A window's lookup reads the lists of all its trigrams: its cost is its most common one.
        const cost = Math.max(...trigrams(window).map(shareOf));
        if (!best || cost < best.cost) best = { window, cost };
      }
    }
  }
  return best && best.cost <= TOO_COMMON ? best.window : null;
}
