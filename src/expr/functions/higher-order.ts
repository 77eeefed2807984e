/**
 * JSONata's built-ins that call functions ($map, $filter, $single, $reduce, $sift, $each, $sort, $zip),
 * ported from jsonata 2.x: a callback gets as many of (value, index, array) as it declares parameters.
 */
import { ExprError } from '../runtime/errors.js';
import { callAs, functionArity } from '../runtime/functions.js';
import { tick } from '../runtime/guard.js';
import { createSequence, nested } from '../runtime/sequence.js';
import { isArrayOfNumbers, isArrayOfStrings, toBoolean } from '../runtime/values.js';

type Callback = (...args: unknown[]) => unknown;
type Arr = readonly unknown[] | undefined;

function callWith(func: unknown, value: unknown, position: unknown, whole: unknown): unknown {
  const arity = functionArity(func);
  tick();
  if (arity >= 3) return (func as Callback)(value, position, whole);
  if (arity >= 2) return (func as Callback)(value, position);
  return (func as Callback)(value);
}

export function map(arr: Arr, func: unknown): unknown {
  if (arr === undefined) return undefined;
  const result = createSequence();
  for (let i = 0; i < arr.length; i++) {
    const res = callWith(func, arr[i], i, arr);
    if (res !== undefined) result.push(nested(res));
  }
  return result;
}

export function filter(arr: Arr, func: unknown): unknown {
  if (arr === undefined) return undefined;
  const result = createSequence();
  for (let i = 0; i < arr.length; i++) {
    if (toBoolean(callWith(func, arr[i], i, arr))) result.push(arr[i]);
  }
  return result;
}

export function single(arr: Arr, func?: unknown): unknown {
  if (arr === undefined) return undefined;
  let found = false;
  let result: unknown;
  for (let i = 0; i < arr.length; i++) {
    const positive = func === undefined ? true : toBoolean(callWith(func, arr[i], i, arr));
    if (!positive) continue;
    if (found) throw new ExprError('D3138', { index: i });
    result = arr[i];
    found = true;
  }
  if (!found) throw new ExprError('D3139');
  return result;
}

export function reduce(sequence: Arr, func: unknown, init?: unknown): unknown {
  if (sequence === undefined) return undefined;
  const arity = functionArity(func);
  if (arity < 2) throw new ExprError('D3050', { index: 1 });
  let result: unknown;
  let index: number;
  if (init === undefined && sequence.length > 0) {
    result = sequence[0];
    index = 1;
  } else {
    result = init;
    index = 0;
  }
  const f = func as Callback;
  while (index < sequence.length) {
    tick();
    if (arity >= 4) result = f(result, sequence[index], index, sequence);
    else if (arity >= 3) result = f(result, sequence[index], index);
    else result = f(result, sequence[index]);
    index++;
  }
  return result;
}

export function sift(arg: unknown, func: unknown): unknown {
  const result: Record<string, unknown> = {};
  let any = false;
  for (const key of objectKeys(arg)) {
    const entry = (arg as Record<string, unknown>)[key];
    if (toBoolean(callWith(func, entry, key, arg))) {
      setMember(result, key, entry);
      any = true;
    }
  }
  return any ? result : undefined;
}

export function each(obj: unknown, func: unknown): unknown {
  const result = createSequence();
  for (const key of objectKeys(obj)) {
    const val = callWith(func, (obj as Record<string, unknown>)[key], key, obj);
    if (val !== undefined) result.push(nested(val));
  }
  return result;
}

/** jsonata's utils.keys: an object's own keys, none for anything else. */
export function objectKeys(arg: unknown): string[] {
  return typeof arg === 'object' && arg !== null ? Object.keys(arg) : [];
}

/** Sets an own member, also for the key `__proto__` (which plain assignment would take as the prototype). */
export function setMember(target: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__')
    Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  else target[key] = value;
}

/** A comparator answering "should b come before a" (jsonata's swap flag). */
export type Swap = (a: unknown, b: unknown) => unknown;

/**
 * jsonata's stable merge sort with a swap comparator; written with loops instead of jsonata's recursive
 * merge, so long arrays do not exhaust the stack. Same comparisons in the same order.
 */
export function mergeSort(arr: readonly unknown[], comp: Swap): unknown[] {
  const msort = (array: readonly unknown[]): unknown[] => {
    if (array.length <= 1) return array as unknown[];
    const middle = Math.floor(array.length / 2);
    const left = msort(array.slice(0, middle));
    const right = msort(array.slice(middle));
    const merged: unknown[] = [];
    let l = 0;
    let r = 0;
    while (l < left.length && r < right.length) {
      tick();
      if (comp(left[l], right[r])) merged.push(right[r++]);
      else merged.push(left[l++]);
    }
    while (l < left.length) merged.push(left[l++]);
    while (r < right.length) merged.push(right[r++]);
    return merged;
  };
  return msort(arr);
}

export function sort(arr: Arr, comparator?: unknown): unknown {
  if (arr === undefined) return undefined;
  if (arr.length <= 1) return arr;
  let comp: Swap;
  if (comparator === undefined) {
    if (!isArrayOfNumbers(arr) && !isArrayOfStrings(arr)) throw new ExprError('D3070', { index: 1 });
    comp = (a, b) => (a as number) > (b as number);
  } else {
    comp = (a, b) => callAs('comp', comparator, a, b);
  }
  return mergeSort(arr, comp);
}

export function zip(...args: unknown[]): unknown[] {
  const result: unknown[] = [];
  const length = Math.min(...args.map((arg) => (Array.isArray(arg) ? arg.length : 0)));
  for (let i = 0; i < length; i++) result.push(args.map((arg) => (arg as unknown[])[i]));
  return result;
}
