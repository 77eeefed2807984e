/**
 * Splits a YAML string into literal text and `${ ... }` expression sources, without parsing JSONata:
 * the closing brace is found by skipping JSONata strings, backtick names, comments and nested braces.
 */

/** A piece of a scanned string; offsets are indexes into the scanned string. */
export type Segment =
  | { readonly kind: 'text'; readonly text: string }
  | { readonly kind: 'expr'; readonly source: string; readonly offset: number };

export type ScanResult =
  | { readonly ok: true; readonly segments: readonly Segment[] }
  /**
   * `${` at `offset` has no closing `}`: `unclosed` says what was still open at the end of the text, at
   * `openAt` (a string quote or a comment start; for a brace, the `${` itself).
   */
  | {
      readonly ok: false;
      readonly offset: number;
      readonly unclosed: 'brace' | 'string' | 'comment';
      readonly openAt: number;
    };

/** Scans `text` for `${ ... }` (and the `$${` escape, which stands for a literal `${`). */
export function scanTemplate(text: string): ScanResult {
  const segments: Segment[] = [];
  let literal = '';
  let i = 0;
  while (i < text.length) {
    if (text.startsWith('$${', i)) {
      literal += '${';
      i += 3;
      continue;
    }
    if (text.startsWith('${', i)) {
      const start = i + 2;
      const end = findClosingBrace(text, start);
      if (typeof end !== 'number') return { ok: false, offset: i, unclosed: end.unclosed, openAt: end.openAt ?? i };
      if (literal) segments.push({ kind: 'text', text: literal });
      literal = '';
      segments.push({ kind: 'expr', source: text.slice(start, end), offset: start });
      i = end + 1;
      continue;
    }
    literal += text[i];
    i += 1;
  }
  if (literal || segments.length === 0) segments.push({ kind: 'text', text: literal });
  return { ok: true, segments };
}

/** Index of the `}` closing an expression that starts at `from`, or what was left open. */
function findClosingBrace(
  text: string,
  from: number,
): number | { unclosed: 'brace' | 'string' | 'comment'; openAt?: number } {
  let depth = 0;
  let i = from;
  // The last significant character, to tell a regex literal (/re/ where an operand starts) from a division.
  let previous = '';
  while (i < text.length) {
    const ch = text[i] as string;
    if (ch === '"' || ch === "'" || ch === '`') {
      const after = skipQuoted(text, i, ch);
      if (after < 0) return { unclosed: 'string', openAt: i };
      i = after;
      previous = ch;
      continue;
    }
    if (ch === '/' && text[i + 1] !== '*' && OPERAND_STARTS_AFTER.includes(previous)) {
      const after = skipQuoted(text, i, '/');
      if (after < 0) return { unclosed: 'string', openAt: i };
      i = after;
      previous = '/';
      continue;
    }
    if (ch === '/' && text[i + 1] === '*') {
      const close = text.indexOf('*/', i + 2);
      if (close < 0) return { unclosed: 'comment', openAt: i };
      i = close + 2;
      continue;
    }
    if (ch === '{') depth += 1;
    else if (ch === '}') {
      if (depth === 0) return i;
      depth -= 1;
    }
    if (!/\s/.test(ch)) previous = ch;
    i += 1;
  }
  return { unclosed: 'brace' };
}

/** Characters after which a `/` starts a regex literal rather than dividing ('' is the start). */
const OPERAND_STARTS_AFTER = [
  '',
  '(',
  '[',
  '{',
  ',',
  ':',
  '?',
  '=',
  '!',
  '<',
  '>',
  '&',
  '|',
  '+',
  '-',
  '*',
  '%',
  '~',
  ';',
];

/** Index just after the quoted run starting at `start`, or -1 when it is never closed; JSONata strings escape with a backslash. */
function skipQuoted(text: string, start: number, quote: string): number {
  let i = start + 1;
  while (i < text.length) {
    const ch = text[i];
    if (ch === '\\' && quote !== '`') i += 2;
    else if (ch === quote) return i + 1;
    else i += 1;
  }
  return -1;
}
