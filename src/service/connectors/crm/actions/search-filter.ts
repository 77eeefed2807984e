import { sql, type RawBuilder, type SqlBool } from 'kysely';
import { ServiceError } from '../../../core/errors.js';
import { normalizeDate } from '../dates.js';
import type { ObjectType } from '../object-types.js';
import { jsonPath } from '../records-store.js';

/** One api_search filter as the params schema admits it. */
export interface SearchFilter {
  propertyName: string;
  operator: string;
  value?: string | number | boolean;
  highValue?: string | number | boolean;
  values?: (string | number | boolean)[];
}

/** A compiled filter: an optional SQL prefilter (a superset of the matches) and the exact JS test. */
export interface CompiledFilter {
  readonly sql: RawBuilder<SqlBool> | null;
  readonly test: (props: Readonly<Record<string, string>>) => boolean;
}

const NUMERIC = /^-?\d+(\.\d+)?$/;
const ASCII = /^[\x20-\x7e]*$/;

/** Compares a stored value with a filter value: instants for dates, numbers when both are numeric, else case-insensitive text. */
const STORED_ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

export function compareValues(type: ObjectType, property: string, stored: string, given: string): number {
  if (type.kinds[property] === 'datetime') {
    // Stored dates are already normalised; text order is time order then (the sort's hot path).
    if (STORED_ISO.test(stored) && STORED_ISO.test(given)) return stored < given ? -1 : stored > given ? 1 : 0;
    const a = normalizeDate(stored);
    const b = normalizeDate(given);
    if (a !== null && b !== null) return a < b ? -1 : a > b ? 1 : 0;
  }
  if (NUMERIC.test(stored.trim()) && NUMERIC.test(given.trim())) return Math.sign(Number(stored) - Number(given));
  const x = stored.toLowerCase();
  const y = given.toLowerCase();
  return x < y ? -1 : x > y ? 1 : 0;
}

/** Token match for CONTAINS_TOKEN: the whole value, its words, or its alphanumeric runs match the pattern; * is a wildcard. */
function containsToken(stored: string, pattern: string): boolean {
  const p = pattern.toLowerCase();
  const lower = stored.toLowerCase();
  const tokens = new Set([lower, ...lower.split(/\s+/), ...lower.split(/[^\p{L}\p{N}]+/u)].filter((t) => t.length > 0));
  if (!p.includes('*')) return tokens.has(p);
  const re = new RegExp(
    `^${p
      .split('*')
      .map((s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
      .join('.*')}$`,
    's',
  );
  for (const t of tokens) if (re.test(t)) return true;
  return false;
}

function bad(field: string, message: string): ServiceError {
  return new ServiceError('H400_INVALID_FILTER', { message }, { field });
}

/** Longest filter value api_search accepts (as long as the longest query). */
export const MAX_FILTER_VALUE = 3000;

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

/** Compiles one filter; `field` locates it in params for errors. */
export function compileFilter(type: ObjectType, f: SearchFilter, field: string): CompiledFilter {
  checkFilterLengths(f, field);
  const name = f.propertyName;
  const path = jsonPath(name);
  const col = path ? sql<string | null>`json_extract(properties, ${path})` : null;
  const need = (key: 'value' | 'highValue'): string => {
    const v = f[key];
    if (v === undefined || v === null) throw bad(`${field}.${key}`, `operator ${f.operator} needs ${key}`);
    return String(v);
  };
  const get = (p: Readonly<Record<string, string>>): string | undefined => {
    // Own properties only: "__proto__" or "constructor" name no stored property.
    const v = Object.hasOwn(p, name) ? p[name] : undefined;
    return v === undefined || v === '' ? undefined : v;
  };
  const plainText = (v: string) => !NUMERIC.test(v.trim()) && ASCII.test(v) && type.kinds[name] !== 'datetime';
  switch (f.operator) {
    case 'EQ':
    case 'NEQ':
    case 'LT':
    case 'LTE':
    case 'GT':
    case 'GTE': {
      const value = need('value');
      const op = f.operator;
      const test = (p: Readonly<Record<string, string>>) => {
        const v = get(p);
        if (v === undefined) return op === 'NEQ';
        const c = compareValues(type, name, v, value);
        return op === 'EQ'
          ? c === 0
          : op === 'NEQ'
            ? c !== 0
            : op === 'LT'
              ? c < 0
              : op === 'LTE'
                ? c <= 0
                : op === 'GT'
                  ? c > 0
                  : c >= 0;
      };
      const pre = op === 'EQ' && col && plainText(value) ? sql<SqlBool>`lower(${col}) = ${value.toLowerCase()}` : null;
      return { sql: pre, test };
    }
    case 'BETWEEN': {
      const low = need('value');
      const high = need('highValue');
      return {
        sql: col ? sql<SqlBool>`${col} is not null` : null,
        test: (p) => {
          const v = get(p);
          return v !== undefined && compareValues(type, name, v, low) >= 0 && compareValues(type, name, v, high) <= 0;
        },
      };
    }
    case 'IN':
    case 'NOT_IN': {
      if (!f.values || f.values.length === 0)
        throw bad(`${field}.values`, `operator ${f.operator} needs a non-empty values array`);
      const values = f.values.map(String);
      const isIn = (v: string | undefined) =>
        v !== undefined && values.some((x) => compareValues(type, name, v, x) === 0);
      const pre =
        f.operator === 'IN' && col && values.every(plainText)
          ? sql<SqlBool>`lower(${col}) in (${sql.join(values.map((v) => v.toLowerCase()))})`
          : null;
      return { sql: pre, test: f.operator === 'IN' ? (p) => isIn(get(p)) : (p) => !isIn(get(p)) };
    }
    case 'HAS_PROPERTY':
      return { sql: col ? sql<SqlBool>`${col} is not null` : null, test: (p) => get(p) !== undefined };
    case 'NOT_HAS_PROPERTY':
      return { sql: null, test: (p) => get(p) === undefined };
    case 'CONTAINS_TOKEN':
    case 'NOT_CONTAINS_TOKEN': {
      const value = need('value');
      const has = (p: Readonly<Record<string, string>>) => {
        const v = get(p);
        return v !== undefined && containsToken(v, value);
      };
      // Any token match contains the pattern's literal pieces, so LIKE on them is a safe superset.
      const pieces = value
        .toLowerCase()
        .split('*')
        .filter((s) => s.length > 0);
      const pre =
        f.operator === 'CONTAINS_TOKEN' && col && ASCII.test(value) && pieces.length > 0
          ? sql<SqlBool>`lower(${col}) like ${`%${pieces.map(escapeLike).join('%')}%`} escape '\\'`
          : null;
      return { sql: pre, test: f.operator === 'CONTAINS_TOKEN' ? has : (p) => !has(p) };
    }
    default:
      throw bad(`${field}.operator`, `unknown operator ${f.operator}`);
  }
}

/** Escapes LIKE wildcards so a pattern piece matches literally. */
export function escapeLike(s: string): string {
  return s.replace(/[\\%_]/g, (c) => `\\${c}`);
}
