import type { ServiceErrorItem } from '../core/errors.js';
import { fieldTypeOf, type FieldCatalog, type FieldType } from './fields.js';
import { OPERATORS, type Cond, type Scalar } from './filter-ast.js';
import { words } from './words.js';

const MAX_DEPTH = 32;
const MAX_NODES = 500;
const MAX_IN_VALUES = 1000;
/** Longest string a filter compares with; longer ones are refused (a field's value is never that long). */
export const MAX_VALUE_LENGTH = 1000;
/** Keys of array elements usable inside `any` (they are bound as values, never spliced into SQL). */
const SUBFIELD = /^[A-Za-z_][A-Za-z0-9_]{0,63}$/;

type Scope = { kind: 'doc'; catalog: FieldCatalog; entity: string } | { kind: 'element'; arrayField: string };

interface Parser {
  problems: ServiceErrorItem[];
  nodes: number;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isScalar = (v: unknown): v is Scalar =>
  typeof v === 'string' || typeof v === 'boolean' || (typeof v === 'number' && Number.isFinite(v));
const describe = (v: unknown) => (v === null ? 'null' : Array.isArray(v) ? 'an array' : typeof v);

function fail(p: Parser, field: string, message: string, details: Record<string, unknown> | null = null): null {
  p.problems.push({ field, message, error_code: 'invalid_filter', details });
  return null;
}

/** The type of a field in this scope, or null (after recording the problem) when it is not searchable. */
function fieldType(p: Parser, scope: Scope, field: string, at: string): FieldType | null {
  if (scope.kind === 'element') {
    if (SUBFIELD.test(field)) return 'string';
    return fail(
      p,
      at,
      `"${field}" is not a valid element key inside any (letters, digits and _; "value" for arrays of scalars)`,
    );
  }
  const type = fieldTypeOf(scope.catalog, field);
  if (type) return type;
  return fail(p, at, `unknown field "${field}" for ${scope.entity}`, {
    field,
    searchable_fields: Object.keys(scope.catalog.fields),
  });
}

function parseLeaf(
  p: Parser,
  scope: Scope,
  op: string,
  field: string,
  value: unknown,
  at: string,
  depth: number,
): Cond | null {
  const type = fieldType(p, scope, field, at);
  if (type === null) return null;
  const longest = Math.max(
    0,
    ...(Array.isArray(value) ? value : [value]).map((v) => (typeof v === 'string' ? v.length : 0)),
  );
  if (longest > MAX_VALUE_LENGTH) {
    p.problems.push({
      field: at,
      message: `a value of "${field}" is ${longest} characters long; the limit is ${MAX_VALUE_LENGTH}`,
      error_code: 'value_too_long',
      details: { limit: MAX_VALUE_LENGTH, length: longest },
    });
    return null;
  }
  if (type === 'array' && op !== 'contains' && op !== 'any')
    return fail(p, at, `"${field}" is an array field: use contains or any`);
  if (type !== 'array' && (op === 'contains' || op === 'any'))
    return fail(p, at, `${op} works on array fields; "${field}" is not one`);
  const scalarOk = (v: unknown) =>
    type === 'boolean'
      ? typeof v === 'boolean'
      : scope.kind === 'element'
        ? isScalar(v)
        : typeof v === 'string' || (typeof v === 'number' && Number.isFinite(v));
  const expected = type === 'boolean' ? 'a boolean' : 'a string or a number';
  switch (op) {
    case 'eq':
    case 'neq':
      if (value !== null && !scalarOk(value))
        return fail(p, at, `${op} on "${field}" needs ${expected} or null, not ${describe(value)}`);
      return { kind: 'compare', op, field, value: value as Scalar | null };
    case 'gt':
    case 'gte':
    case 'lt':
    case 'lte':
      if (type === 'boolean') return fail(p, at, `${op} does not apply to the boolean field "${field}"`);
      if (!scalarOk(value) || typeof value === 'boolean')
        return fail(p, at, `${op} on "${field}" needs a string or a number, not ${describe(value)}`);
      return { kind: 'compare', op, field, value: value as Scalar };
    case 'in':
      if (!Array.isArray(value) || value.length === 0 || value.length > MAX_IN_VALUES) {
        return fail(p, at, `in on "${field}" needs an array of 1 to ${MAX_IN_VALUES} values`);
      }
      if (!value.every(scalarOk))
        return fail(
          p,
          at,
          `in on "${field}" needs an array of ${type === 'boolean' ? 'booleans' : 'strings or numbers'}`,
        );
      return { kind: 'in', field, values: value as Scalar[] };
    case 'like':
      if (type === 'boolean' || typeof value !== 'string' || value.length === 0)
        return fail(p, at, `like on "${field}" needs a non-empty string (and a text field)`);
      return { kind: 'like', field, value };
    case 'fuzzy':
    case 'keyword': {
      if (scope.kind === 'element') return fail(p, at, `${op} is not available inside any`);
      if (type !== 'string')
        return fail(p, at, `${op} works on text fields; "${field}" is ${type === 'date' ? 'a date' : 'a boolean'}`);
      const ws = typeof value === 'string' ? words(value) : [];
      if (ws.length === 0) return fail(p, at, `${op} on "${field}" needs a string with at least one word`);
      return { kind: op, field, words: ws.slice(0, 32) };
    }
    case 'contains':
      if (!isScalar(value))
        return fail(p, at, `contains on "${field}" needs a string, number or boolean element value`);
      return { kind: 'contains', field, value };
    case 'any': {
      const inner = parseCond(p, { kind: 'element', arrayField: field }, value, at, depth + 1);
      return inner && { kind: 'any', field, cond: inner };
    }
  }
  return null;
}

function parseCond(p: Parser, scope: Scope, node: unknown, path: string, depth: number): Cond | null {
  p.nodes += 1;
  if (depth > MAX_DEPTH || p.nodes > MAX_NODES)
    return fail(p, path, `the filter is too large (at most ${MAX_DEPTH} levels and ${MAX_NODES} conditions)`);
  if (!isObject(node) || Object.keys(node).length === 0) {
    return fail(
      p,
      path,
      `a condition must be an object {operator: {field: value}}, not ${isObject(node) ? 'an empty object' : describe(node)}`,
    );
  }
  const parts: Cond[] = [];
  let ok = true;
  for (const [op, arg] of Object.entries(node)) {
    const at = `${path}.${op}`;
    if (!(OPERATORS as readonly string[]).includes(op)) {
      ok = fail(p, at, `unknown operator "${op}"`, { operators: [...OPERATORS] }) !== null;
      continue;
    }
    if (op === 'and' || op === 'or') {
      if (!Array.isArray(arg) || arg.length === 0) {
        ok = fail(p, at, `${op} needs a non-empty array of conditions`) !== null;
        continue;
      }
      const items = arg.map((c, i) => parseCond(p, scope, c, `${at}[${i}]`, depth + 1));
      if (items.every((c): c is Cond => c !== null)) parts.push({ kind: op, items });
      else ok = false;
      continue;
    }
    if (op === 'not') {
      const item = parseCond(p, scope, arg, at, depth + 1);
      if (item) parts.push({ kind: 'not', item });
      else ok = false;
      continue;
    }
    if (scope.kind === 'element' && (op === 'contains' || op === 'any')) {
      ok = fail(p, at, `${op} is not available inside any`) !== null;
      continue;
    }
    if (!isObject(arg) || Object.keys(arg).length === 0) {
      ok = fail(p, at, `${op} needs an object {field: value}, not ${describe(arg)}`) !== null;
      continue;
    }
    // Several fields inside one operator object are ANDed, like several operators in one condition.
    for (const [field, value] of Object.entries(arg)) {
      const leaf = parseLeaf(p, scope, op, field, value, `${at}[${JSON.stringify(field)}]`, depth);
      if (leaf) parts.push(leaf);
      else ok = false;
    }
  }
  if (!ok) return null;
  return parts.length === 1 ? (parts[0] as Cond) : { kind: 'and', items: parts };
}

/** Parses and validates a filter tree; problems are collected (all of them) with their paths. */
export function parseFilter(
  node: unknown,
  catalog: FieldCatalog,
  entity: string,
  path: string,
  problems: ServiceErrorItem[],
): Cond | null {
  const p: Parser = { problems, nodes: 0 };
  return parseCond(p, { kind: 'doc', catalog, entity }, node, path, 0);
}
