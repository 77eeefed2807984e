/**
 * select_fields / exclude_fields of execute: dotted paths ("id", "properties.email") applied to each
 * result record (each element when the result is an array, the object itself otherwise). Paths that
 * do not exist are ignored; arrays along a path are not traversed. Only own keys count: "constructor" or
 * "__proto__" name a field the record has, never something its prototype inherits.
 */
type Json = Record<string, unknown>;

function isObject(v: unknown): v is Json {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** The value of an own key, or undefined (inherited names such as "constructor" are not fields). */
function own(v: unknown, key: string): unknown {
  return isObject(v) && Object.hasOwn(v, key) ? v[key] : undefined;
}

/** Copies only the selected paths of a record into a new object (null-prototype while built, so any key is a plain key). */
function pick(record: Json, paths: readonly string[]): Json {
  const out: Json = Object.create(null) as Json;
  for (const path of paths) {
    const parts = path.split('.');
    let src: unknown = record;
    for (const p of parts) src = own(src, p);
    if (src === undefined) continue;
    let dst = out;
    for (const p of parts.slice(0, -1)) {
      const next = own(dst, p);
      dst = isObject(next) ? next : (dst[p] = Object.create(null) as Json);
    }
    dst[parts[parts.length - 1]!] = src;
  }
  return out;
}

/** Returns a copy of a record without the excluded paths (the input is not changed). */
function omit(record: Json, paths: readonly string[]): Json {
  const out: Json = structuredClone(record);
  for (const path of paths) {
    const parts = path.split('.');
    let obj: unknown = out;
    for (const p of parts.slice(0, -1)) obj = own(obj, p);
    if (isObject(obj)) delete obj[parts[parts.length - 1]!];
  }
  return out;
}

/** Applies select (first) then exclude to every record of a result; non-object records pass through. */
export function applyFieldSelection(result: unknown, select?: readonly string[], exclude?: readonly string[]): unknown {
  if (!select?.length && !exclude?.length) return result;
  const one = (r: unknown): unknown => {
    if (!isObject(r)) return r;
    let v = select?.length ? pick(r, select) : r;
    if (exclude?.length) v = omit(v, exclude);
    return v;
  };
  return Array.isArray(result) ? result.map(one) : one(result);
}
