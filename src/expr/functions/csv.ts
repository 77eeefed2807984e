/**
 * `$csv(rows, columns?)`: CSV text (RFC 4180) from an array of objects (or of arrays). A header row of the
 * column names comes first; a field is quoted when it holds a comma, a double quote, a CR or a LF, with its
 * quotes doubled; every record ends with CRLF. Without `columns`, the columns are the keys of the rows in the
 * order they first appear (rows that are arrays give their values in order, with no header row).
 */
import { toJsonataString } from '../runtime/values.js';

export function csv(rows: readonly unknown[] | undefined, columns?: readonly string[]): string | undefined {
  if (rows === undefined) return undefined;
  const header = columns ?? keysInOrder(rows);
  const lines: string[] = [];
  if (header.length > 0 && (columns !== undefined || rows.some(isRecord))) lines.push(header.map(field).join(','));
  for (const row of rows) {
    if (Array.isArray(row)) lines.push(row.map(field).join(','));
    else if (isRecord(row))
      lines.push(header.map((key) => field(Object.hasOwn(row, key) ? row[key] : undefined)).join(','));
    else lines.push(field(row));
  }
  return lines.map((line) => `${line}\r\n`).join('');
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function keysInOrder(rows: readonly unknown[]): string[] {
  const seen = new Set<string>();
  for (const row of rows) if (isRecord(row)) for (const key of Object.keys(row)) seen.add(key);
  return [...seen];
}

const NEEDS_QUOTES = /[",\r\n]/;

/** One field: nothing for null and undefined, text as is, numbers and booleans as JSONata prints them, the rest as JSON. */
function field(value: unknown): string {
  if (value === undefined || value === null) return '';
  const text = typeof value === 'string' ? value : (toJsonataString(value) ?? '');
  return NEEDS_QUOTES.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}
