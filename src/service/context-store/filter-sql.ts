import { sql, type RawBuilder } from 'kysely';
import type { Cond, Scalar } from './filter-ast.js';
import { ftsMatch } from './sqlite-fts.js';
import { likeCandidates } from './sqlite-like.js';
import { toComparable } from './values.js';
import { fieldToken } from './words.js';
import { fidOf, type FieldIds } from './field-ids.js';

type Expr = RawBuilder<unknown>;

/** Where a condition is evaluated: a document (alias d) or one array element (alias e, inside any). */
export interface SqlScope {
  connectorId: string;
  entity: string;
  /** The entity's field numbers: value rows name their field by it (field-ids.ts). */
  fids: FieldIds;
  element?: { field: string };
  /**
   * How a document-level condition reaches the value tables: 'in' collects the matching ids first
   * (best when few match), 'exists' probes each document in sort order (best when many match, since the
   * page fills quickly). plan.ts chooses.
   */
  mode?: 'in' | 'exists';
  /** The entity's text fields: their values are in the trigram index (sqlite-like.ts). */
  likeFields?: readonly string[];
  /** Per like condition, the window to look up in the trigram index, or null to read values (like-plan.ts). */
  likePlans?: ReadonlyMap<Cond, string | null>;
}
type Scope = SqlScope;

/** Escapes LIKE's own metacharacters except %, which stays the documented wildcard. */
function likePattern(value: string): string {
  return `%${value.toLowerCase().replace(/[\\_]/g, (c) => `\\${c}`)}%`;
}

/** Column references of a value row (alias v). */
interface Cols {
  kind: Expr;
  num: Expr;
  text: Expr;
}

const INDEXED: Cols = { kind: sql`v.kind`, num: sql`v.num`, text: sql`v.text` };
/**
 * The same columns wrapped so no index can serve them: when probing one document, the planner must take
 * the per-document key (doc, fid) rather than scan a value index for each document.
 */
const PROBED: Cols = { kind: sql`(v.kind + 0)`, num: sql`(v.num + 0)`, text: sql`(v.text || '')` };

/**
 * The predicate on one value row for a comparison; booleans and numbers compare numerically. A string
 * equals a stored text exactly when their (kind, num, text) triples are equal (the triple is a function
 * of the text), so equality seeks the sort index on all of (field, kind, num, text).
 */
function valuePredicate(op: string, value: Scalar | null, c: Cols = INDEXED): Expr {
  if (value === null) return op === 'eq' ? sql`${c.kind} = 2` : sql`${c.kind} <> 2`;
  const cmp = sql.raw({ eq: '=', neq: '<>', gt: '>', gte: '>=', lt: '<', lte: '<=' }[op] ?? '=');
  if (typeof value === 'boolean') return sql`(${c.kind} = 0 AND ${c.num} ${cmp} ${value ? 1 : 0})`;
  if (typeof value === 'number') return sql`(${c.kind} = 0 AND ${c.num} ${cmp} ${value})`;
  if (op === 'eq') {
    const t = toComparable(value);
    return sql`(${c.kind} = ${t.kind} AND ${c.num} = ${t.num} AND ${c.text} = ${t.text})`;
  }
  // Text order over every non-null value: a range seek over plain text, plus the (few) numeric-looking ones.
  return sql`((${c.kind} = 1 AND ${c.num} = 0 AND ${c.text} ${cmp} ${value}) OR (${c.kind} = 0 AND ${c.text} ${cmp} ${value}))`;
}

/**
 * Bounds on one value, as alternative branches each of which is one index range: numbers on num; strings
 * on text, once for plain text (kind 1) and once for numeric-looking text (kind 0), since their text order
 * is compared too. Callers OR the branches at the document level so each can seek its own range.
 */
function rangeBranches(bounds: readonly { op: string; value: string | number }[], c: Cols = INDEXED): Expr[] {
  const cmp = (op: string) => sql.raw({ gt: '>', gte: '>=', lt: '<', lte: '<=' }[op] ?? '=');
  if (typeof bounds[0]?.value === 'number') {
    return [
      sql`(${c.kind} = 0 AND ${sql.join(
        bounds.map((b) => sql`${c.num} ${cmp(b.op)} ${b.value}`),
        sql` AND `,
      )})`,
    ];
  }
  const onText = sql.join(
    bounds.map((b) => sql`${c.text} ${cmp(b.op)} ${b.value}`),
    sql` AND `,
  );
  return [sql`(${c.kind} = 1 AND ${c.num} = 0 AND ${onText})`, sql`(${c.kind} = 0 AND ${onText})`];
}

function inPredicate(values: readonly Scalar[], c: Cols = INDEXED): Expr {
  const texts = values.filter((x): x is string => typeof x === 'string').map(toComparable);
  const plain = texts.filter((t) => t.kind === 1).map((t) => t.text);
  const numericTexts = texts.filter((t) => t.kind === 0);
  const nums = values.filter((x) => typeof x !== 'string').map((x) => (typeof x === 'boolean' ? (x ? 1 : 0) : x));
  const parts: Expr[] = [];
  if (plain.length > 0) parts.push(sql`(${c.kind} = 1 AND ${c.num} = 0 AND ${c.text} IN (${sql.join(plain)}))`);
  // The text determines the number, so matching both sets is exact.
  if (numericTexts.length > 0) {
    parts.push(
      sql`(${c.kind} = 0 AND ${c.num} IN (${sql.join(numericTexts.map((t) => t.num))}) AND ${c.text} IN (${sql.join(numericTexts.map((t) => t.text))}))`,
    );
  }
  if (nums.length > 0) parts.push(sql`(${c.kind} = 0 AND ${c.num} IN (${sql.join(nums)}))`);
  return sql`(${sql.join(parts, sql` OR `)})`;
}

function likePredicate(value: string, c: Cols = INDEXED): Expr {
  return sql`(${c.kind} <> 2 AND lower(${c.text}) LIKE ${likePattern(value)} ESCAPE '\\')`;
}

/** The columns predicates use in this scope: probed (index-proof) when testing one known document. */
const colsFor = (scope: Scope): Cols => (scope.mode === 'exists' && !scope.element ? PROBED : INDEXED);

/**
 * The ids of the documents with a value row of field `fid` matching the predicate. As ids (each value row's
 * document looked up by rowid), so that the page is read through the documents' id index, in id order, and
 * stops after a page: a list of rowids would make SQLite read every document of the entity instead.
 */
function matchingIds(fid: number, predicate: Expr): Expr {
  return sql`SELECT m.id FROM cs_values v JOIN cs_docs m ON m.rowid = v.doc WHERE v.fid = ${fid} AND ${predicate}`;
}

/** Rows of the value table that belong to this field in this scope (a doc's scalar field, or one element's key). */
function valueRows(scope: Scope, field: string, predicate: Expr): Expr {
  if (scope.element) {
    return sql`EXISTS (SELECT 1 FROM cs_array_values v WHERE v.connector_id = ${scope.connectorId} AND v.entity = ${scope.entity} AND v.field = ${scope.element.field} AND v.id = e.id AND v.pos = e.pos AND v.subfield = ${field} AND ${predicate})`;
  }
  const fid = fidOf(scope.fids, field);
  if (scope.mode === 'exists') {
    return sql`EXISTS (SELECT 1 FROM cs_values v WHERE v.doc = d.rowid AND v.fid = ${fid} AND ${predicate})`;
  }
  return sql`d.id IN (${matchingIds(fid, predicate)})`;
}

/** Bounds of a comparison or range leaf, or null for other leaves. */
function boundsOf(cond: Cond): { op: 'gt' | 'gte' | 'lt' | 'lte'; value: string | number }[] | null {
  if (cond.kind === 'range') return cond.bounds;
  if (
    cond.kind === 'compare' &&
    cond.op !== 'eq' &&
    cond.op !== 'neq' &&
    (typeof cond.value === 'string' || typeof cond.value === 'number')
  ) {
    return [{ op: cond.op, value: cond.value }];
  }
  return null;
}

/** The index-range branches (see rangeBranches) of a range or comparison leaf on the value row `alias`. */
export function rangeBranchesOn(cond: Cond, alias: string): Expr[] | null {
  const bounds = boundsOf(cond);
  if (!bounds) return null;
  const a = sql.raw(alias);
  return rangeBranches(bounds, { kind: sql`${a}.kind`, num: sql`${a}.num`, text: sql`${a}.text` });
}

/** The value-row predicates (alias v) of one leaf, for plan.ts's row estimates; null for other kinds. */
export function leafPredicates(cond: Cond): { field: string; predicates: Expr[] } | null {
  const bounds = boundsOf(cond);
  if (bounds && (cond.kind === 'compare' || cond.kind === 'range'))
    return { field: cond.field, predicates: rangeBranches(bounds) };
  switch (cond.kind) {
    case 'compare':
      return cond.op === 'neq' ? null : { field: cond.field, predicates: [valuePredicate(cond.op, cond.value)] };
    case 'in':
      return { field: cond.field, predicates: [inPredicate(cond.values)] };
    default:
      return null;
  }
}

/** Rows matching any of the branches: one value-table lookup per branch, ORed at the document level. */
function anyBranch(scope: Scope, field: string, branches: Expr[]): Expr {
  if (branches.length === 1 || scope.mode === 'exists' || scope.element) {
    return valueRows(scope, field, sql`(${sql.join(branches, sql` OR `)})`);
  }
  // One id list from all branches, so the planner can still drive the page from it.
  const fid = fidOf(scope.fids, field);
  return sql`d.id IN (${sql.join(
    branches.map((b) => matchingIds(fid, b)),
    sql` UNION ALL `,
  )})`;
}

/**
 * Compiles a validated condition to SQL. Field names and values are always bound parameters; only
 * operator keywords chosen from fixed tables are written into the SQL text.
 */
export function condToSql(cond: Cond, scope: Scope): Expr {
  switch (cond.kind) {
    case 'and':
      return sql`(${sql.join(
        cond.items.map((c) => condToSql(c, scope)),
        sql` AND `,
      )})`;
    case 'or':
      return sql`(${sql.join(
        cond.items.map((c) => condToSql(c, scope)),
        sql` OR `,
      )})`;
    case 'not':
      return sql`(NOT ${condToSql(cond.item, scope)})`;
    case 'compare': {
      // neq is "not equal": records without a value match it too (it is the negation of eq).
      if (cond.op === 'neq')
        return sql`(NOT ${valueRows(scope, cond.field, valuePredicate('eq', cond.value, colsFor(scope)))})`;
      const bounds = boundsOf(cond);
      if (bounds) return anyBranch(scope, cond.field, rangeBranches(bounds, colsFor(scope)));
      return valueRows(scope, cond.field, valuePredicate(cond.op, cond.value, colsFor(scope)));
    }
    case 'in':
      return valueRows(scope, cond.field, inPredicate(cond.values, colsFor(scope)));
    case 'range':
      return anyBranch(scope, cond.field, rangeBranches(cond.bounds, colsFor(scope)));
    case 'like': {
      const window = scope.likePlans?.get(cond);
      const candidates =
        !scope.element && scope.mode !== 'exists' && scope.likeFields?.includes(cond.field) && window
          ? likeCandidates(window)
          : null;
      if (candidates) {
        // Candidates from the trigram index, then the exact test on each candidate's value.
        const exact = valueRows({ ...scope, mode: 'exists' }, cond.field, likePredicate(cond.value, PROBED));
        return sql`(${candidates} AND ${exact})`;
      }
      return valueRows(scope, cond.field, likePredicate(cond.value, colsFor(scope)));
    }
    case 'fuzzy':
    case 'keyword': {
      const prefix = fieldToken(scope.connectorId, scope.entity, cond.field);
      const terms = cond.words.map((w) => ({ term: prefix + w, prefix: cond.kind === 'fuzzy' }));
      return ftsMatch(terms, cond.kind === 'fuzzy' ? 'all' : 'any');
    }
    case 'contains': {
      // Scalar elements match by value; object elements match by their id key.
      const pred = inPredicate([cond.value]);
      return sql`d.id IN (SELECT v.id FROM cs_array_values v WHERE v.connector_id = ${scope.connectorId} AND v.entity = ${scope.entity} AND v.field = ${cond.field} AND v.subfield IN ('value', 'id') AND ${pred})`;
    }
    case 'any': {
      const inner = condToSql(cond.cond, { ...scope, element: { field: cond.field } });
      return sql`d.id IN (SELECT e.id FROM (SELECT DISTINCT id, pos FROM cs_array_values WHERE connector_id = ${scope.connectorId} AND entity = ${scope.entity} AND field = ${cond.field}) e WHERE ${inner})`;
    }
  }
}
