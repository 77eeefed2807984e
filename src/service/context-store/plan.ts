import { sql, type Kysely } from 'kysely';
import type { Cond } from './filter-ast.js';
import { leafPredicates } from './filter-sql.js';
import { fidOf, type FieldIds } from './field-ids.js';
import type { CoreTables } from '../core/tables.js';

/**
 * A filter is broad when it matches more than a quarter of the entity (and at least MIN_BROAD rows):
 * then probing documents in page order fills a page after a few rows, where collecting every match
 * first would read and sort most of the index.
 */
const MIN_BROAD = 5000;

async function leafRows(db: Kysely<CoreTables>, fids: FieldIds, cond: Cond, BROAD: number): Promise<number> {
  const leaf = leafPredicates(cond);
  if (!leaf) return 0;
  let total = 0;
  for (const predicate of leaf.predicates) {
    // Bounded count: never reads more than BROAD + 1 index entries per branch.
    const r = await sql<{
      n: number;
    }>`SELECT count(*) AS n FROM (SELECT 1 FROM cs_values v WHERE v.fid = ${fidOf(fids, leaf.field)} AND ${predicate} LIMIT ${BROAD + 1})`.execute(
      db,
    );
    total += Number(r.rows[0]?.n ?? 0);
  }
  return total;
}

/** An upper estimate of the documents a condition matches (capped just above the broad threshold). */
async function estimate(db: Kysely<CoreTables>, fids: FieldIds, cond: Cond, BROAD: number): Promise<number> {
  switch (cond.kind) {
    case 'and': {
      let best = BROAD + 1;
      for (const c of cond.items) best = Math.min(best, await estimate(db, fids, c, BROAD));
      return best;
    }
    case 'or': {
      let sum = 0;
      for (const c of cond.items) sum += await estimate(db, fids, c, BROAD);
      return Math.min(sum, BROAD + 1);
    }
    case 'not':
      return BROAD + 1;
    case 'compare':
      return cond.op === 'neq' ? BROAD + 1 : leafRows(db, fids, cond, BROAD);
    case 'in':
    case 'range':
      return leafRows(db, fids, cond, BROAD);
    default:
      // like scans anyway; fuzzy/keyword/contains/any go through their own indexes: collect ids first.
      return 0;
  }
}

/** Chooses how the filter is joined: collect matching ids ('in') for narrow filters, probe in order ('exists') for broad ones. */
export async function chooseMode(
  db: Kysely<CoreTables>,
  fids: FieldIds,
  cond: Cond | null,
  indexed: number,
): Promise<'in' | 'exists'> {
  if (!cond) return 'in';
  const broad = Math.max(MIN_BROAD, Math.floor(indexed / 4));
  return (await estimate(db, fids, cond, broad)) > broad ? 'exists' : 'in';
}
