/**
 * The built-in functions compiled code calls, by name: jsonata's signature and the arity its implementation
 * declares (what $map and friends look at), and the implementation: ported ones, jsonata's own for the
 * picture-string functions, and ours ($csv, UTF-8 base64). The jsonata engine registers the same
 * extensions (EXTENSIONS), so an expression gives the same result whichever engine runs it.
 */
import { makeNative, type FnValue } from '../runtime/functions.js';
import { parseSignature } from '../runtime/signature.js';
import { csv } from './csv.js';
import { fromMillis, millis, now, toMillis } from './dates.js';
import {
  base64decode,
  base64encode,
  decodeUrl,
  decodeUrlComponent,
  encodeUrl,
  encodeUrlComponent,
} from './encoding.js';
import { each, filter, map, reduce, sift, single, sort, zip } from './higher-order.js';
import { callJsonataNative } from './jsonata-natives.js';
import { abs, average, ceil, count, floor, max, min, number, power, random, round, sqrt, sum } from './numbers.js';
import {
  append,
  assert,
  boolean,
  clone,
  distinct,
  error,
  exists,
  keys,
  lookup,
  merge,
  not,
  reverse,
  shuffle,
  spread,
  type,
} from './objects.js';
import {
  contains,
  join,
  length,
  lowercase,
  match,
  pad,
  replace,
  split,
  string,
  substring,
  substringAfter,
  substringBefore,
  trim,
  uppercase,
} from './strings.js';

type Impl = (...args: never[]) => unknown;

/** name → [implementation, signature, arity of jsonata's implementation]. */
const TABLE: Readonly<Record<string, readonly [Impl, string, number]>> = {
  sum: [sum, '<a<n>:n>', 1],
  count: [count, '<a:n>', 1],
  max: [max, '<a<n>:n>', 1],
  min: [min, '<a<n>:n>', 1],
  average: [average, '<a<n>:n>', 1],
  string: [string, '<x-b?:s>', 1],
  substring: [substring, '<s-nn?:s>', 3],
  substringBefore: [substringBefore, '<s-s:s>', 2],
  substringAfter: [substringAfter, '<s-s:s>', 2],
  lowercase: [lowercase, '<s-:s>', 1],
  uppercase: [uppercase, '<s-:s>', 1],
  length: [length, '<s-:n>', 1],
  trim: [trim, '<s-:s>', 1],
  pad: [pad, '<s-ns?:s>', 3],
  match: [match, '<s-f<s:o>n?:a<o>>', 3],
  contains: [contains, '<s-(sf):b>', 2],
  replace: [replace, '<s-(sf)(sf)n?:s>', 4],
  split: [split, '<s-(sf)n?:a<s>>', 3],
  join: [join, '<a<s>s?:s>', 2],
  formatNumber: [native('formatNumber'), '<n-so?:s>', 3],
  formatBase: [native('formatBase'), '<n-n?:s>', 2],
  formatInteger: [native('formatInteger'), '<n-s:s>', 2],
  parseInteger: [native('parseInteger'), '<s-s:n>', 2],
  number: [number, '<(nsb)-:n>', 1],
  floor: [floor, '<n-:n>', 1],
  ceil: [ceil, '<n-:n>', 1],
  round: [round, '<n-n?:n>', 2],
  abs: [abs, '<n-:n>', 1],
  sqrt: [sqrt, '<n-:n>', 1],
  power: [power, '<n-n:n>', 2],
  random: [random, '<:n>', 0],
  boolean: [boolean, '<x-:b>', 1],
  not: [not, '<x-:b>', 1],
  map: [map, '<af>', 2],
  zip: [zip, '<a+>', 0],
  filter: [filter, '<af>', 2],
  single: [single, '<af?>', 2],
  reduce: [reduce, '<afj?:j>', 3],
  sift: [sift, '<o-f?:o>', 2],
  keys: [keys, '<x-:a<s>>', 1],
  lookup: [lookup, '<x-s:x>', 2],
  append: [append, '<xx:a>', 2],
  exists: [exists, '<x:b>', 1],
  spread: [spread, '<x-:a<o>>', 1],
  merge: [merge, '<a<o>:o>', 1],
  reverse: [reverse, '<a:a>', 1],
  each: [each, '<o-f:a>', 2],
  error: [error, '<s?:x>', 1],
  assert: [assert, '<bs?:x>', 2],
  type: [type, '<x:s>', 1],
  sort: [sort, '<af?:a>', 2],
  shuffle: [shuffle, '<a:a>', 1],
  distinct: [distinct, '<x:x>', 1],
  base64encode: [base64encode, '<s-:s>', 1],
  base64decode: [base64decode, '<s-:s>', 1],
  encodeUrlComponent: [encodeUrlComponent, '<s-:s>', 1],
  encodeUrl: [encodeUrl, '<s-:s>', 1],
  decodeUrlComponent: [decodeUrlComponent, '<s-:s>', 1],
  decodeUrl: [decodeUrl, '<s-:s>', 1],
  toMillis: [toMillis, '<s-s?:n>', 2],
  fromMillis: [fromMillis, '<n-s?s?:s>', 3],
  clone: [clone, '<(oa)-:o>', 1],
  now: [now, '<s?s?:s>', 2],
  millis: [millis, '<:n>', 0],
  csv: [csv, '<aa<s>?:s>', 2],
};

/** Functions this engine adds to or changes in jsonata's library; registered with jsonata too. */
export const EXTENSIONS: readonly { name: string; impl: Impl; signature: string }[] = [
  { name: 'csv', impl: csv, signature: '<aa<s>?:s>' },
  { name: 'base64encode', impl: base64encode, signature: '<s-:s>' },
  { name: 'base64decode', impl: base64decode, signature: '<s-:s>' },
];

function native(name: string): Impl {
  return (...args: never[]) => callJsonataNative(name, args);
}

const values = new Map<string, FnValue>();

/** The function value of built-in `name` (made once), or undefined when there is none. */
export function builtinFunction(name: string): FnValue | undefined {
  let fn = values.get(name);
  if (fn === undefined) {
    const entry = TABLE[name];
    if (entry === undefined || !Object.hasOwn(TABLE, name)) return undefined;
    const [impl, signature, arity] = entry;
    fn = makeNative(name, impl as (...args: unknown[]) => unknown, parseSignature(signature), arity);
    values.set(name, fn);
  }
  return fn;
}

/** Names of every built-in compiled code knows (jsonata's library, `$eval` aside, and the extensions). */
export function compiledBuiltinNames(): readonly string[] {
  return Object.keys(TABLE);
}
