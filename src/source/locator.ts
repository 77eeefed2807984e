import type { LineCounter } from 'yaml';
import type { Position } from '../errors/index.js';

/** A 1-based line and column (the one type, from errors/). */
export type { Position } from '../errors/index.js';

/** How a scalar was written, so offsets inside its value can be mapped back to the file. */
export interface ScalarSource {
  readonly style: string;
  /** Offsets in the file: start of the scalar's source (quote or block indicator included) and its end. */
  readonly start: number;
  readonly end: number;
  readonly value: string;
}

interface NodeEntry {
  /** File offset where the value node starts. */
  readonly valueAt: number;
  /** File offset where the key of this member starts (for map members). */
  readonly keyAt?: number;
  readonly scalar?: ScalarSource;
}

/**
 * JSON pointer → position in the file, for every node of a loaded document. A pointer that has no entry of
 * its own (e.g. a missing member) falls back to its nearest ancestor.
 */
export class Locator {
  private readonly entries = new Map<string, NodeEntry>();
  private readonly offsetMaps = new Map<string, number[]>();

  constructor(
    private readonly text: string,
    private readonly lineCounter: LineCounter,
  ) {}

  /** Records a node (called by the loader). The first record of a pointer wins (aliases reuse anchors). */
  record(pointer: string, entry: NodeEntry): void {
    if (!this.entries.has(pointer)) this.entries.set(pointer, entry);
  }

  /** True when the document has a node at `pointer`. */
  has(pointer: string): boolean {
    return this.entries.has(pointer);
  }

  /** Position of the node at `pointer` (or of character `offset` of its string value), else its nearest ancestor. */
  locate(pointer: string, offset?: number): Position {
    const entry = this.nearest(pointer);
    if (!entry) return { line: 1, column: 1 };
    if (offset !== undefined && entry.scalar) return this.at(this.scalarOffset(pointer, entry.scalar, offset));
    return this.at(entry.valueAt);
  }

  /** Position of the key of the member at `pointer` (falls back to the value, then to ancestors). */
  locateKey(pointer: string): Position {
    const entry = this.entries.get(pointer);
    if (entry?.keyAt !== undefined) return this.at(entry.keyAt);
    return this.locate(pointer);
  }

  /** Position of a file offset. */
  at(offset: number): Position {
    const { line, col } = this.lineCounter.linePos(Math.max(0, Math.min(offset, this.text.length)));
    return { line, column: col };
  }

  private nearest(pointer: string): NodeEntry | undefined {
    let p = pointer;
    for (;;) {
      const entry = this.entries.get(p);
      if (entry) return entry;
      if (p === '') return undefined;
      p = p.slice(0, Math.max(0, p.lastIndexOf('/')));
    }
  }

  private scalarOffset(pointer: string, scalar: ScalarSource, offset: number): number {
    let map = this.offsetMaps.get(pointer);
    if (!map) {
      map = alignScalar(this.text, scalar);
      this.offsetMaps.set(pointer, map);
    }
    if (map.length === 0) return scalar.start;
    return map[Math.min(Math.max(0, offset), map.length - 1)] ?? scalar.start;
  }
}

/**
 * For each character of a scalar's value, the file offset it was written at (plus one entry for the end).
 * The source is first read as characters (a double-quoted escape is one character at its backslash, an
 * escaped line break is none, '' in single quotes is one), then the value is matched greedily against them:
 * what only exists in the source (indentation, folded line breaks) is skipped. Exact for plain and quoted
 * single-line scalars and for literal blocks; close for folded and multi-line ones.
 */
export function alignScalar(text: string, scalar: ScalarSource): number[] {
  const { value } = scalar;
  const source = sourceChars(text, scalar);
  const map: number[] = [];
  const endAt = scalar.end;
  let j = 0;
  for (let i = 0; i < value.length; i += 1) {
    const ch = value[i] as string;
    while (j < source.length && source[j]?.ch !== ch && !(isSpace(ch) && isSpace(source[j]?.ch))) j += 1;
    map.push(source[j]?.at ?? endAt);
    if (j < source.length && source[j]?.ch !== ch && isSpace(ch)) {
      // A folded line break: the value has one space where the source has a break and indentation.
      while (j < source.length && isSpace(source[j]?.ch) && source[j]?.ch !== value[i + 1]) j += 1;
      continue;
    }
    j += 1;
  }
  map.push(source[j]?.at ?? endAt);
  return map;
}

interface SourceChar {
  readonly ch: string;
  readonly at: number;
}

/** The characters of a scalar's source that can stand for value characters, with their offsets. */
function sourceChars(text: string, scalar: ScalarSource): SourceChar[] {
  const { style, end } = scalar;
  let j = scalar.start;
  let stop = end;
  if (style === 'QUOTE_SINGLE' || style === 'QUOTE_DOUBLE') {
    j += 1;
    stop = Math.max(j, end - 1);
  }
  if (style === 'BLOCK_LITERAL' || style === 'BLOCK_FOLDED') {
    const header = text.indexOf('\n', j);
    j = header < 0 ? end : header + 1;
  }
  const out: SourceChar[] = [];
  while (j < stop) {
    const c = text[j] as string;
    if (style === 'QUOTE_SINGLE' && c === "'" && text[j + 1] === "'") {
      out.push({ ch: "'", at: j });
      j += 2;
      continue;
    }
    if (style === 'QUOTE_DOUBLE' && c === '\\') {
      const e = text[j + 1] ?? '';
      if (e === '\n' || e === '\r') {
        j += e === '\r' && text[j + 2] === '\n' ? 3 : 2;
        while (j < stop && (text[j] === ' ' || text[j] === '\t')) j += 1;
        continue;
      }
      const length = e === 'x' ? 4 : e === 'u' ? 6 : e === 'U' ? 10 : 2;
      const decoded = decodeEscape(e, text.slice(j + 2, j + length));
      for (const unit of decoded) out.push({ ch: unit, at: j });
      j += length;
      continue;
    }
    out.push({ ch: c, at: j });
    j += 1;
  }
  return out;
}

const SIMPLE_ESCAPES: Record<string, string> = {
  '0': '\0',
  a: '\x07',
  b: '\b',
  t: '\t',
  '\t': '\t',
  n: '\n',
  v: '\v',
  f: '\f',
  r: '\r',
  e: '\x1b',
  ' ': ' ',
  '"': '"',
  '/': '/',
  '\\': '\\',
  N: '\u0085',
  _: '\u00a0',
  L: '\u2028',
  P: '\u2029',
};

/** The UTF-16 units a double-quoted escape stands for (one per unit, so the value's indexes line up). */
function decodeEscape(e: string, hex: string): string[] {
  if (e === 'x' || e === 'u' || e === 'U') {
    const code = Number.parseInt(hex, 16);
    return Number.isNaN(code) ? ['?'] : [...String.fromCodePoint(code)].flatMap((c) => c.split(''));
  }
  return [SIMPLE_ESCAPES[e] ?? e];
}
function isSpace(ch: string | undefined): boolean {
  return ch === ' ' || ch === '\n' || ch === '\t' || ch === '\r';
}
