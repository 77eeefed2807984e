import type { IndexedFields } from './fields.js';
import { words } from './words.js';

/** One comparable value: kind 0 number, 1 text, 2 null; num and text never null (see migrations). */
export interface Comparable {
  kind: 0 | 1 | 2;
  num: number;
  text: string;
}

const NUMERIC = /^-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?$/;

/** How a stored value compares and sorts: numeric strings as numbers, booleans as 1/0, missing as null. */
export function toComparable(value: unknown): Comparable {
  if (value === null || value === undefined) return { kind: 2, num: 0, text: '' };
  if (typeof value === 'boolean') return { kind: 0, num: value ? 1 : 0, text: String(value) };
  if (typeof value === 'number')
    return Number.isFinite(value)
      ? { kind: 0, num: value, text: String(value) }
      : { kind: 1, num: 0, text: String(value) };
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  if (NUMERIC.test(text) && text.length <= 30) {
    const num = Number(text);
    if (Number.isFinite(num)) return { kind: 0, num, text };
  }
  return { kind: 1, num: 0, text };
}

export interface ValueRow extends Comparable {
  field: string;
}

export interface ArrayValueRow extends Comparable {
  field: string;
  pos: number;
  subfield: string;
}

/** The rows that make one document searchable: scalar values, array elements and the full-text body. */
export interface DocRows {
  values: ValueRow[];
  arrays: ArrayValueRow[];
  ftsBody: string;
}

/** Array elements are scalars (subfield "value") or objects (one row per scalar key); deeper nesting is not indexed. */
function arrayRows(field: string, raw: unknown): ArrayValueRow[] {
  if (!Array.isArray(raw)) return [];
  const rows: ArrayValueRow[] = [];
  raw.forEach((el, pos) => {
    if (el !== null && typeof el === 'object' && !Array.isArray(el)) {
      for (const [k, v] of Object.entries(el as Record<string, unknown>)) {
        if (v === null || typeof v !== 'object') rows.push({ field, pos, subfield: k, ...toComparable(v) });
      }
    } else {
      rows.push({ field, pos, subfield: 'value', ...toComparable(el) });
    }
  });
  return rows;
}

/**
 * Derives the index rows of a document of one entity of one connector (`fields`: fields.ts indexedFields of
 * its catalog); `tokens` holds the full-text prefix of each text field of that entity (words.ts fieldTokens).
 */
export function docRows(
  fields: IndexedFields,
  doc: Record<string, unknown>,
  tokens: ReadonlyMap<string, string>,
): DocRows {
  const values: ValueRow[] = [];
  for (const { field, read } of fields.scalarReads) {
    const c = toComparable(read(doc));
    values.push({ field, kind: c.kind, num: c.num, text: c.text });
  }
  const arrays = fields.array.flatMap((field) => arrayRows(field, doc[field]));
  const body: string[] = [];
  for (const { field, read } of fields.textReads) {
    const v = read(doc);
    if (typeof v !== 'string' || v.length === 0) continue;
    const prefix = tokens.get(field) as string;
    for (const w of words(v)) body.push(prefix + w);
  }
  return { values, arrays, ftsBody: body.join(' ') };
}

/** The searchable shape of a document: the catalog's fields only (properties filtered to the searchable ones). */
export function searchableDoc(fields: IndexedFields, doc: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const props: Record<string, unknown> = {};
  const docProps = doc.properties as Record<string, unknown> | null | undefined;
  for (const f of fields.copied) {
    if (f.property) props[f.key] = docProps?.[f.key] ?? null;
    else out[f.key] = doc[f.key] ?? (f.array ? [] : null);
  }
  out.properties = props;
  return out;
}
