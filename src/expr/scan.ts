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
  /** `${` at `offset` has no closing `}`. */
  | { readonly ok: false; readonly offset: number };

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
      if (end < 0) return { ok: false, offset: i };
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

/** Index of the `}` closing an expression that starts at `from`, or -1. */
function findClosingBrace(text: string, from: number): number {
  let depth = 0;
  let i = from;
  while (i < text.length) {
    const ch = text[i];
    if (ch === '"' || ch === "'" || ch === '`') {
      i = skipQuoted(text, i, ch);
      continue;
    }
    if (ch === '/' && text[i + 1] === '*') {
      const close = text.indexOf('*/', i + 2);
      if (close < 0) return -1;
      i = close + 2;
      continue;
    }
    if (ch === '{') depth += 1;
    else if (ch === '}') {
      if (depth === 0) return i;
      depth -= 1;
    }
    i += 1;
  }
  return -1;
}

/** Index just after the quoted run starting at `start`; JSONata strings escape with a backslash. */
function skipQuoted(text: string, start: number, quote: string): number {
  let i = start + 1;
  while (i < text.length) {
    const ch = text[i];
    if (ch === '\\' && quote !== '`') i += 2;
    else if (ch === quote) return i + 1;
    else i += 1;
  }
  return text.length;
}
