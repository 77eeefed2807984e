import type { ServiceErrorItem } from '../core/errors.js';
import { fieldTypeOf, type FieldCatalog } from './fields.js';

/** Checks params.fields: dotted paths whose first segment is a searchable field (or "properties"). */
export function parseFields(raw: unknown, catalog: FieldCatalog, problems: ServiceErrorItem[]): string[] | null {
  const fail = (field: string, message: string) => (
    problems.push({ field, message, error_code: 'invalid_fields', details: null }),
    null
  );
  if (raw === undefined || raw === null) return null;
  if (!Array.isArray(raw) || raw.length === 0 || raw.length > 200)
    return fail(
      'params.fields',
      'fields must be a non-empty array (at most 200) of dotted field paths such as "properties.email"',
    );
  const out: string[] = [];
  raw.forEach((f, i) => {
    if (typeof f !== 'string' || f.length === 0)
      return fail(`params.fields[${i}]`, 'a field path must be a non-empty string');
    const known =
      f === 'properties' ||
      fieldTypeOf(catalog, f) !== undefined ||
      Object.keys(catalog.fields).some((k) => catalog.fields[k] === 'array' && f.startsWith(`${k}.`));
    if (!known)
      return fail(
        `params.fields[${i}]`,
        `unknown field "${f}"; use the searchable fields (for example properties.<name>)`,
      );
    out.push(f);
  });
  return out;
}

function getPath(doc: unknown, parts: readonly string[]): unknown {
  let cur = doc;
  for (const p of parts) {
    if (Array.isArray(cur)) return cur.map((el) => getPath(el, [p]));
    cur =
      cur !== null && typeof cur === 'object' && Object.hasOwn(cur, p)
        ? (cur as Record<string, unknown>)[p]
        : undefined;
    if (cur === undefined) return undefined;
  }
  return cur;
}

/** Keeps only the given dotted paths of a document, nested as in the original ("properties.email" → {properties: {email}}). */
export function project(doc: Record<string, unknown>, fields: readonly string[] | null): Record<string, unknown> {
  if (!fields) return doc;
  // Null-prototype objects while building: a path segment such as "__proto__" stays a plain key.
  const out = Object.create(null) as Record<string, unknown>;
  for (const f of fields) {
    const parts = f.startsWith('properties.') ? ['properties', f.slice(11)] : f.split('.');
    const value = getPath(doc, parts);
    let target = out;
    for (const p of parts.slice(0, -1)) {
      const next = Object.hasOwn(target, p) ? target[p] : undefined;
      if (typeof next === 'object' && next !== null) target = next as Record<string, unknown>;
      else target = target[p] = Object.create(null) as Record<string, unknown>;
    }
    target[parts[parts.length - 1] as string] = value ?? null;
  }
  return out;
}
