/**
 * JSONata's value rules (jsonata 2.x utils and functions, ported one to one): numbers, truthiness, deep
 * equality, conversion to text and type names. The compiled code and the built-ins share them.
 */
import { ExprError } from './errors.js';
import { isJsonataFunction, OUTER, type Marked } from './sequence.js';

/** jsonata's isNumeric: a number that is not NaN; an infinite one is an error (D1001). */
export function isNumeric(n: unknown): n is number {
  if (typeof n !== 'number') return false;
  if (Number.isNaN(n)) return false;
  if (!Number.isFinite(n)) throw new ExprError('D1001', { value: n });
  return true;
}

/** A function value: a JS function (compiled lambda, built-in, host function) or one made by jsonata. */
export function isFunction(arg: unknown): boolean {
  if (typeof arg === 'function') return true;
  return arg !== null && typeof arg === 'object' && isJsonataFunction(arg);
}

export function isArrayOfStrings(arg: unknown): boolean {
  return Array.isArray(arg) && arg.every((item) => typeof item === 'string');
}

export function isArrayOfNumbers(arg: unknown): boolean {
  if (!Array.isArray(arg)) return false;
  // Every item is checked (jsonata filters the whole array), so an infinite one still throws D1001.
  let all = true;
  for (const item of arg) if (!isNumeric(item)) all = false;
  return all;
}

/** jsonata's $boolean (undefined for undefined). */
export function toBoolean(arg: unknown): boolean | undefined {
  if (arg === undefined) return undefined;
  if (Array.isArray(arg)) {
    if (arg.length === 1) return toBoolean(arg[0]);
    if (arg.length > 1) {
      let any = false;
      for (const item of arg) if (toBoolean(item)) any = true;
      return any;
    }
    return false;
  }
  if (typeof arg === 'string') return arg.length > 0;
  if (isNumeric(arg)) return arg !== 0;
  if (arg !== null && typeof arg === 'object' && !isFunction(arg)) return Object.keys(arg).length > 0;
  return arg === true;
}

/** Truthiness for `and`/`or`: undefined counts as false. */
export function boolize(value: unknown): boolean {
  return toBoolean(value) ?? false;
}

/** jsonata's deep equality for `=`, `!=` and $distinct (an array and an object compare by own property names). */
export function isDeepEqual(lhs: unknown, rhs: unknown): boolean {
  if (lhs === rhs) return true;
  if (typeof lhs !== 'object' || typeof rhs !== 'object' || lhs === null || rhs === null) return false;
  if (Array.isArray(lhs) && Array.isArray(rhs)) {
    if (lhs.length !== rhs.length) return false;
    for (let i = 0; i < lhs.length; i++) if (!isDeepEqual(lhs[i], rhs[i])) return false;
    return true;
  }
  const lkeys = Object.getOwnPropertyNames(lhs).sort();
  const rkeys = Object.getOwnPropertyNames(rhs).sort();
  if (lkeys.length !== rkeys.length) return false;
  for (let i = 0; i < lkeys.length; i++) if (lkeys[i] !== rkeys[i]) return false;
  const l = lhs as Record<string, unknown>;
  const r = rhs as Record<string, unknown>;
  for (const key of lkeys) if (!isDeepEqual(l[key], r[key])) return false;
  return true;
}

/** jsonata's $string: text as is, functions as '', other values as JSON with numbers to 15 significant digits. */
export function toJsonataString(arg: unknown, prettify = false): string | undefined {
  if (arg === undefined) return undefined;
  if (typeof arg === 'string') return arg;
  if (isFunction(arg)) return '';
  if (typeof arg === 'number') {
    if (!Number.isFinite(arg)) throw new ExprError('D3001', { value: arg });
    if (!prettify) return Number.isInteger(arg) ? String(arg) : String(Number(arg.toPrecision(15)));
  }
  const value = Array.isArray(arg) && (arg as Marked)[OUTER] === true ? arg[0] : arg;
  return JSON.stringify(value, stringifyMember, prettify ? 2 : 0);
}

function stringifyMember(_key: string, val: unknown): unknown {
  if (val !== undefined && val !== null && isNumeric(val))
    return Number.isInteger(val) ? val : Number(val.toPrecision(15));
  return val && isFunction(val) ? '' : val;
}

/** jsonata's $type. */
export function typeOf(value: unknown): string | undefined {
  if (value === undefined) return undefined;
  if (value === null) return 'null';
  if (isNumeric(value)) return 'number';
  if (typeof value === 'string') return 'string';
  if (typeof value === 'boolean') return 'boolean';
  if (Array.isArray(value)) return 'array';
  if (isFunction(value)) return 'function';
  return 'object';
}

/** The characters of a string as jsonata counts them (code points, not UTF-16 units). */
export function stringToArray(str: string): string[] {
  return Array.from(str);
}
