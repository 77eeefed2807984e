import { createHash } from 'node:crypto';
import { sql, type RawBuilder } from 'kysely';
import type { CursorSeal } from '../core/cursor-seal.js';
import type { ServiceErrorItem } from '../core/errors.js';
import { fieldTypeOf, type FieldCatalog } from './fields.js';
import type { SortKey } from './filter-ast.js';

const MAX_SORT_KEYS = 5;

/** Parses query.sort: [{field: "asc"|"desc"}, ...] over scalar fields; problems are collected. */
export function parseSort(raw: unknown, catalog: FieldCatalog, path: string, problems: ServiceErrorItem[]): SortKey[] {
  const fail = (field: string, message: string) =>
    problems.push({ field, message, error_code: 'invalid_sort', details: null });
  if (raw === undefined) return [];
  if (!Array.isArray(raw) || raw.length > MAX_SORT_KEYS) {
    fail(path, `sort must be an array of at most ${MAX_SORT_KEYS} objects like {"createdAt": "desc"}`);
    return [];
  }
  const keys: SortKey[] = [];
  raw.forEach((item, i) => {
    const at = `${path}[${i}]`;
    const entries =
      item !== null && typeof item === 'object' && !Array.isArray(item) ? Object.entries(item as object) : [];
    if (entries.length !== 1)
      return fail(at, 'each sort condition is an object with exactly one field: {"<field>": "asc" | "desc"}');
    const [field, dir] = entries[0] as [string, unknown];
    const type = fieldTypeOf(catalog, field);
    if (!type)
      return fail(
        `${at}[${JSON.stringify(field)}]`,
        `unknown field "${field}"; sortable fields: ${Object.keys(catalog.fields)
          .filter((f) => catalog.fields[f] !== 'array')
          .join(', ')}`,
      );
    if (type === 'array')
      return fail(`${at}[${JSON.stringify(field)}]`, `"${field}" is an array field and cannot be sorted on`);
    if (dir !== 'asc' && dir !== 'desc')
      return fail(`${at}[${JSON.stringify(field)}]`, 'the direction must be "asc" or "desc"');
    keys.push({ field, dir });
  });
  return keys;
}

/** The position of the last record of a page: its sort values (kind, num, text per key) and its id. */
export interface CursorPosition {
  values: [number, number, string][];
  id: string;
}

/** A fingerprint of filter and sort: a cursor only continues the query that produced it. */
export function queryFingerprint(query: unknown): string {
  return createHash('sha256')
    .update(JSON.stringify(query ?? null))
    .digest('base64url')
    .slice(0, 16);
}

/** Encodes a cursor: its JSON, sealed (opaque base64url that only this service can open). */
export function encodeCursor(cursors: CursorSeal, pos: CursorPosition, fingerprint: string): string {
  return cursors.seal(JSON.stringify({ v: pos.values, i: pos.id, q: fingerprint }));
}

/** Decodes a cursor made by encodeCursor for the same query; anything else is a problem at params.cursor. */
export function decodeCursor(
  cursors: CursorSeal,
  raw: unknown,
  keys: number,
  fingerprint: string,
  problems: ServiceErrorItem[],
): CursorPosition | null {
  const fail = (message: string) => (
    problems.push({ field: 'params.cursor', message, error_code: 'invalid_cursor', details: null }),
    null
  );
  if (raw === undefined || raw === null) return null;
  if (typeof raw !== 'string' || raw.length > 4096 || !/^[A-Za-z0-9_-]+$/.test(raw))
    return fail('cursor must be the meta.cursor string of a previous response');
  const opened = cursors.open(raw);
  if (opened === null) return fail('cursor is not a cursor this service issued');
  let parsed: unknown;
  try {
    parsed = JSON.parse(opened);
  } catch {
    return fail('cursor is not a cursor this service issued');
  }
  const c = parsed as { v?: unknown; i?: unknown; q?: unknown };
  const valid =
    typeof c === 'object' &&
    c !== null &&
    typeof c.i === 'string' &&
    Array.isArray(c.v) &&
    c.v.length === keys &&
    c.v.every(
      (t) =>
        Array.isArray(t) &&
        t.length === 3 &&
        [0, 1, 2].includes(t[0]) &&
        typeof t[1] === 'number' &&
        typeof t[2] === 'string',
    );
  if (!valid) return fail('cursor is not a cursor this service issued');
  if (c.q !== fingerprint)
    return fail('cursor belongs to a different query or sort; send the same query as the request that returned it');
  return { values: c.v as [number, number, string][], id: c.i as string };
}

/** One column of the keyset order with its direction. */
interface OrderColumn {
  expr: RawBuilder<unknown>;
  dir: 'asc' | 'desc';
  value: number | string;
}

/** The ORDER BY columns: (kind, num, text) per sort key, then d.id ascending as the tie-break. */
export function orderColumns(keys: readonly SortKey[], pos: CursorPosition | null): OrderColumn[] {
  const cols: OrderColumn[] = [];
  keys.forEach((k, i) => {
    const v = pos?.values[i] ?? [0, 0, ''];
    const alias = sql.raw(`s${i}`);
    cols.push({ expr: sql`${alias}.kind`, dir: k.dir, value: v[0] });
    cols.push({ expr: sql`${alias}.num`, dir: k.dir, value: v[1] });
    cols.push({ expr: sql`${alias}.text`, dir: k.dir, value: v[2] });
  });
  cols.push({ expr: sql`d.id`, dir: 'asc', value: pos?.id ?? '' });
  return cols;
}

/** "Strictly after the cursor position" in the order of the columns (lexicographic keyset condition). */
export function afterPosition(cols: readonly OrderColumn[]): RawBuilder<unknown> {
  const branches = cols.map((col, j) => {
    const equal = cols.slice(0, j).map((c) => sql`${c.expr} = ${c.value}`);
    const beyond = col.dir === 'asc' ? sql`${col.expr} > ${col.value}` : sql`${col.expr} < ${col.value}`;
    return sql`(${sql.join([...equal, beyond], sql` AND `)})`;
  });
  return sql`(${sql.join(branches, sql` OR `)})`;
}

/** The ORDER BY clause of the columns. */
export function orderBy(cols: readonly OrderColumn[]): RawBuilder<unknown> {
  return sql.join(cols.map((c) => sql`${c.expr} ${sql.raw(c.dir === 'asc' ? 'ASC' : 'DESC')}`));
}
