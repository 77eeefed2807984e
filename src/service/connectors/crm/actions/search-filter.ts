import { sql, type RawBuilder, type SqlBool } from 'kysely';
import { ServiceError } from '../../../core/errors.js';
import { normalizeDate } from '../dates.js';
import type { ObjectType } from '../object-types.js';
import { ftsTerm, propertyExprs } from '../search-index.js';
import { numericValue, tokenPrefix } from '../search-semantics.js';

/** One api_search filter as the params schema admits it. */
export interface SearchFilter {
  propertyName: string;
  operator: string;
  value?: string | number | boolean;
  highValue?: string | number | boolean;
  values?: (string | number | boolean)[];
}

/**
 * A filter as SQL over crm_records (no alias): exact, so nothing is filtered again in JavaScript.
 * `sortKey`: the predicate implies the property is present and not numeric, so rows it keeps sort by
 * crm_key alone (lets a range on a date property come out of its index in sort order).
 */
export interface CompiledFilter {
  readonly sql: RawBuilder<SqlBool>;
  readonly sortKey: string | null;
}

/** Longest filter value api_search accepts (as long as the longest query). */
export const MAX_FILTER_VALUE = 3000;

function bad(field: string, message: string): ServiceError {
  return new ServiceError('H400_INVALID_FILTER', { message }, { field });
}

/** A value_too_long 400 when a filter's value, highValue or one of its values is longer than the limit. */
export function checkFilterLengths(f: SearchFilter, field: string): void {
  const parts: [string, unknown][] = [
    ['value', f.value],
    ['highValue', f.highValue],
    ...(f.values ?? []).map((v, i): [string, unknown] => [`values[${i}]`, v]),
  ];
  for (const [key, v] of parts) {
    if (typeof v === 'string' && v.length > MAX_FILTER_VALUE)
      throw new ServiceError(
        'H400_VALUE_TOO_LONG',
        { field: `${field}.${key}`, length: v.length, limit: MAX_FILTER_VALUE },
        { field: `${field}.${key}`, details: { limit: MAX_FILTER_VALUE, length: v.length } },
      );
  }
}

type Range = '<' | '<=' | '>' | '>=';
const RANGE: Readonly<Record<string, Range>> = { LT: '<', LTE: '<=', GT: '>', GTE: '>=' };

/**
 * Compiles one filter (compareValues' rules, search-semantics.ts, written as SQL on the indexed keys);
 * `field` locates it in params for errors. Absent values (missing or "") never compare: NEQ, NOT_IN,
 * NOT_HAS_PROPERTY and NOT_CONTAINS_TOKEN are the only operators they satisfy.
 */
export function compileFilter(type: ObjectType, f: SearchFilter, field: string): CompiledFilter {
  checkFilterLengths(f, field);
  const name = f.propertyName;
  const { value, key, num } = propertyExprs(name);
  const kind = Object.hasOwn(type.kinds, name) ? type.kinds[name] : undefined;
  const need = (k: 'value' | 'highValue'): string => {
    const v = f[k];
    if (v === undefined || v === null) throw bad(`${field}.${k}`, `operator ${f.operator} needs ${k}`);
    return String(v);
  };
  /** The given value as the keys compare it: a date (folded ISO), a number, or folded text. */
  const given = (g: string): { date: string } | { num: number; text: string } | { text: string } => {
    if (kind === 'datetime') {
      const d = normalizeDate(g);
      if (d !== null) return { date: d.toLowerCase() };
    }
    const n = numericValue(g);
    return n !== null ? { num: n, text: g.toLowerCase() } : { text: g.toLowerCase() };
  };
  const eq = (g: string): RawBuilder<SqlBool> => {
    const v = given(g);
    if ('date' in v) return sql<SqlBool>`(${num} IS NULL AND ${key} = ${v.date})`;
    // A number equals numeric values only; folded text equal to a non-numeric given is never numeric.
    if ('num' in v) return sql<SqlBool>`${num} = ${v.num}`;
    return sql<SqlBool>`(${num} IS NULL AND ${key} = ${v.text})`;
  };
  const range = (op: Range, g: string): RawBuilder<SqlBool> => {
    const v = given(g);
    const cmp = sql.raw(op);
    if ('date' in v) return sql<SqlBool>`(${num} IS NULL AND ${key} ${cmp} ${v.date})`;
    // Numbers against numbers, everything else as text (a numeric value against a text given compares as text).
    if ('num' in v) return sql<SqlBool>`(${num} ${cmp} ${v.num} OR (${num} IS NULL AND ${key} ${cmp} ${v.text}))`;
    return sql<SqlBool>`((${num} IS NULL AND ${key} ${cmp} ${v.text}) OR (${num} IS NOT NULL AND ${key} ${cmp} ${v.text}))`;
  };
  /** Whether every given is a date or plain text: then matches are present, non-numeric values. */
  const keyOnly = (...gs: string[]) => gs.every((g) => !('num' in given(g)));
  const positiveIn = (): RawBuilder<SqlBool> => {
    if (!f.values || f.values.length === 0)
      throw bad(`${field}.values`, `operator ${f.operator} needs a non-empty values array`);
    const parsed = f.values.map((x) => given(String(x)));
    const texts = parsed.map((v) => ('date' in v ? v.date : 'num' in v ? null : v.text)).filter((t) => t !== null);
    const nums = parsed.flatMap((v) => ('num' in v ? [v.num] : []));
    const parts: RawBuilder<SqlBool>[] = [];
    if (texts.length > 0) parts.push(sql<SqlBool>`(${num} IS NULL AND ${key} IN (${sql.join(texts)}))`);
    if (nums.length > 0) parts.push(sql<SqlBool>`${num} IN (${sql.join(nums)})`);
    return sql<SqlBool>`(${sql.join(parts, sql` OR `)})`;
  };
  switch (f.operator) {
    case 'EQ': {
      const g = need('value');
      return { sql: eq(g), sortKey: keyOnly(g) ? name : null };
    }
    case 'NEQ':
      return { sql: sql<SqlBool>`NOT IFNULL(${eq(need('value'))}, 0)`, sortKey: null };
    case 'LT':
    case 'LTE':
    case 'GT':
    case 'GTE': {
      const g = need('value');
      const op = RANGE[f.operator] as Range;
      return { sql: range(op, g), sortKey: 'date' in given(g) ? name : null };
    }
    case 'BETWEEN': {
      const low = need('value');
      const high = need('highValue');
      return {
        sql: sql<SqlBool>`(${range('>=', low)} AND ${range('<=', high)})`,
        sortKey: 'date' in given(low) && 'date' in given(high) ? name : null,
      };
    }
    case 'IN':
      return { sql: positiveIn(), sortKey: null };
    case 'NOT_IN':
      return { sql: sql<SqlBool>`NOT IFNULL(${positiveIn()}, 0)`, sortKey: null };
    case 'HAS_PROPERTY':
      return { sql: sql<SqlBool>`${key} IS NOT NULL`, sortKey: null };
    case 'NOT_HAS_PROPERTY':
      return { sql: sql<SqlBool>`${key} IS NULL`, sortKey: null };
    case 'CONTAINS_TOKEN':
    case 'NOT_CONTAINS_TOKEN': {
      const pattern = need('value');
      const exact = sql<SqlBool>`crm_token(${value}, ${pattern})`;
      if (f.operator === 'NOT_CONTAINS_TOKEN') return { sql: sql<SqlBool>`NOT ${exact}`, sortKey: null };
      // Plain-text properties have their tokens in crm_fts: a token (or the pattern's literal start) finds
      // the candidates there, the exact test keeps the matches. A pattern starting with * tests every record.
      const prefix = tokenPrefix(pattern);
      if (kind !== undefined || type.entity === null || prefix === '') return { sql: exact, sortKey: null };
      const term = ftsTerm(type.key, name, prefix);
      const match = prefix === pattern.toLowerCase() ? `"${term}"` : `"${term}"*`;
      return {
        sql: sql<SqlBool>`(crm_records.rowid IN (SELECT rowid FROM crm_fts WHERE crm_fts MATCH ${match}) AND ${exact})`,
        sortKey: null,
      };
    }
    default:
      throw bad(`${field}.operator`, `unknown operator ${f.operator}`);
  }
}

/** Escapes LIKE wildcards so a pattern piece matches literally. */
export function escapeLike(s: string): string {
  return s.replace(/[\\%_]/g, (c) => `\\${c}`);
}
