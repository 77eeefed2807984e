/**
 * What api_search's comparisons mean, in plain functions: the rules the SQL functions (sql-functions.ts)
 * apply inside SQLite and the reference the tests compare the SQL with. Missing and "" count as absent.
 */
import { normalizeDate } from './dates.js';
import type { PropertyKind } from './entities.js';

const NUMERIC = /^-?\d+(\.\d+)?$/;
const STORED_ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/** The number a value reads as when it is a plain decimal (surrounding spaces allowed), else null. */
export function numericValue(v: string): number | null {
  const t = v.trim();
  return NUMERIC.test(t) ? Number(t) : null;
}

/** The case-folded form values compare by (JavaScript's toLowerCase), or null for an absent value. */
export function foldedKey(v: string | null | undefined): string | null {
  return v === null || v === undefined || v === '' ? null : v.toLowerCase();
}

/**
 * Compares a stored value with a filter value: instants for date properties, numbers when both are
 * numeric, else case-folded text.
 */
export function compareValues(kind: PropertyKind | undefined, stored: string, given: string): number {
  if (kind === 'datetime') {
    // Stored dates are already normalised; text order is time order then.
    if (STORED_ISO.test(stored) && STORED_ISO.test(given)) return stored < given ? -1 : stored > given ? 1 : 0;
    const a = normalizeDate(stored);
    const b = normalizeDate(given);
    if (a !== null && b !== null) return a < b ? -1 : a > b ? 1 : 0;
  }
  const x = numericValue(stored);
  const y = numericValue(given);
  if (x !== null && y !== null) return Math.sign(x - y);
  const s = stored.toLowerCase();
  const g = given.toLowerCase();
  return s < g ? -1 : s > g ? 1 : 0;
}

/** The tokens CONTAINS_TOKEN looks at: the whole value, its words, and its runs of letters and digits. */
export function tokensOf(stored: string): Set<string> {
  const lower = stored.toLowerCase();
  return new Set([lower, ...lower.split(/\s+/), ...lower.split(/[^\p{L}\p{N}]+/u)].filter((t) => t.length > 0));
}

/** CONTAINS_TOKEN: one of the value's tokens equals the pattern, where * is a wildcard (case-insensitive). */
export function containsToken(stored: string, pattern: string): boolean {
  const p = pattern.toLowerCase();
  const tokens = tokensOf(stored);
  if (!p.includes('*')) return tokens.has(p);
  for (const t of tokens) if (wildcardMatch(t, p)) return true;
  return false;
}

/**
 * Whether text matches a pattern whose * matches any run of characters (the rest literally). The usual
 * two-pointer walk that remembers only the last *: time bounded by text × pattern length, where a regular
 * expression with many .* can take exponential time.
 */
function wildcardMatch(text: string, pattern: string): boolean {
  let t = 0;
  let p = 0;
  let star = -1;
  let resume = 0;
  while (t < text.length) {
    if (p < pattern.length && pattern[p] !== '*' && pattern[p] === text[t]) {
      t++;
      p++;
    } else if (p < pattern.length && pattern[p] === '*') {
      star = p++;
      resume = t;
    } else if (star >= 0) {
      p = star + 1;
      t = ++resume;
    } else {
      return false;
    }
  }
  while (p < pattern.length && pattern[p] === '*') p++;
  return p === pattern.length;
}

/** The literal start of a CONTAINS_TOKEN pattern (before its first *), case-folded. */
export function tokenPrefix(pattern: string): string {
  const p = pattern.toLowerCase();
  const star = p.indexOf('*');
  return star < 0 ? p : p.slice(0, star);
}
