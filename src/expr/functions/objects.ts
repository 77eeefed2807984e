/** JSONata's object, array and boolean built-ins, ported from jsonata 2.x (same results, same error codes). */
import { ExprError } from '../runtime/errors.js';
import { evaluationRandom } from '../runtime/guard.js';
import { append as appendValues, createSequence, isSequence, lookup as lookupMember } from '../runtime/sequence.js';
import { isDeepEqual, isFunction, toBoolean, toJsonataString, typeOf } from '../runtime/values.js';
import { objectKeys, setMember } from './higher-order.js';

export function keys(arg: unknown): unknown {
  const result = createSequence();
  if (Array.isArray(arg)) {
    // Keys of every item, merged in an object so they come out in object key order, each once.
    const merged: Record<string, true> = {};
    for (const item of arg) for (const key of keys(item) as string[]) setMember(merged, key, true);
    for (const key of Object.keys(merged)) result.push(key);
  } else if (arg !== null && typeof arg === 'object' && !isFunction(arg)) {
    for (const key of Object.keys(arg)) result.push(key);
  }
  return result;
}

export function lookup(input: unknown, key: string): unknown {
  return lookupMember(input, key);
}

export function append(arg1: unknown, arg2: unknown): unknown {
  return appendValues(arg1, arg2);
}

export function exists(arg: unknown): boolean {
  return arg !== undefined;
}

export function spread(arg: unknown): unknown {
  if (Array.isArray(arg)) {
    let result: unknown = createSequence();
    for (const item of arg) result = appendValues(result, spread(item));
    return result;
  }
  if (arg !== null && typeof arg === 'object' && (arg as { _jsonata_lambda?: unknown })._jsonata_lambda !== true) {
    const result = createSequence();
    for (const key of objectKeys(arg)) {
      const single: Record<string, unknown> = {};
      setMember(single, key, (arg as Record<string, unknown>)[key]);
      result.push(single);
    }
    return result;
  }
  return arg;
}

export function merge(arg: readonly unknown[] | undefined): unknown {
  if (arg === undefined) return undefined;
  const result: Record<string, unknown> = {};
  for (const obj of arg)
    for (const key of objectKeys(obj)) setMember(result, key, (obj as Record<string, unknown>)[key]);
  return result;
}

export function reverse(arr: readonly unknown[] | undefined): unknown {
  if (arr === undefined) return undefined;
  if (arr.length <= 1) return arr;
  const result = new Array<unknown>(arr.length);
  for (let i = 0; i < arr.length; i++) result[arr.length - i - 1] = arr[i];
  return result;
}

/** Values without their duplicates (deep equality), first occurrence kept; scalars are looked up in a set. */
export function distinct(arr: unknown): unknown {
  if (arr === undefined) return undefined;
  if (!Array.isArray(arr) || arr.length <= 1) return arr;
  const results: unknown[] = isSequence(arr) ? createSequence() : [];
  const seenScalars = new Set<unknown>();
  const keptObjects: unknown[] = [];
  for (const value of arr) {
    if (value !== null && typeof value === 'object') {
      // Only another object or array can be deep-equal to an object or array.
      if (keptObjects.some((kept) => isDeepEqual(value, kept))) continue;
      keptObjects.push(value);
    } else if (typeof value === 'number' && Number.isNaN(value)) {
      // NaN equals nothing, not even NaN: every one is kept.
    } else {
      if (seenScalars.has(value)) continue;
      seenScalars.add(value);
    }
    results.push(value);
  }
  return results;
}

/** jsonata's $shuffle (Fisher-Yates, inside-out), drawing from `draw`: the run's chance by default. */
export function shuffle(arr: readonly unknown[] | undefined, draw: () => number = evaluationRandom): unknown {
  if (arr === undefined) return undefined;
  if (arr.length <= 1) return arr;
  const result = new Array<unknown>(arr.length);
  for (let i = 0; i < arr.length; i++) {
    const j = Math.floor(draw() * (i + 1));
    if (i !== j) result[i] = result[j];
    result[j] = arr[i];
  }
  return result;
}

export function boolean(arg: unknown): boolean | undefined {
  return toBoolean(arg);
}

export function not(arg: unknown): boolean | undefined {
  return arg === undefined ? undefined : !toBoolean(arg);
}

export function type(value: unknown): string | undefined {
  return typeOf(value);
}

export function error(message?: string): never {
  throw new ExprError('D3137', { message: message || '$error() function evaluated' });
}

export function assert(condition: boolean, message?: string): undefined {
  if (!condition) throw new ExprError('D3141', { message: message || '$assert() statement failed' });
  return undefined;
}

export function clone(arg: unknown): unknown {
  if (arg === undefined) return undefined;
  return JSON.parse(toJsonataString(arg) as string) as unknown;
}
