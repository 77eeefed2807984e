/**
 * What generated code (codegen.ts) calls: one small function per operator, with the common case (two
 * finite numbers, two strings) inline and the rest handed to the operator code of operators.ts, with the
 * same errors. Each is its own function so that V8 can inline it where generated code calls it.
 */
import { callOne, type CallAt } from './calls.js';
import { setMember } from '../functions/higher-order.js';
import { isDecorable } from '../runtime/errors.js';
import { isSequence, nested, normalize, OUTER, type Marked } from '../runtime/sequence.js';
import { isDeepEqual, toBoolean } from '../runtime/values.js';
import { operatorFunction, negate } from './operators.js';
import { readNames } from './paths.js';

function slow(op: string, l: unknown, r: unknown, position: number | undefined): unknown {
  try {
    return operatorFunction(op)(l, r);
  } catch (err) {
    if (isDecorable(err)) {
      err.position = position;
      err.token = op;
    }
    throw err;
  }
}

const finite = (l: unknown, r: unknown): boolean =>
  typeof l === 'number' && typeof r === 'number' && l - l === 0 && r - r === 0;
const sameKind = (l: unknown, r: unknown): boolean =>
  (typeof l === 'number' && typeof r === 'number') || (typeof l === 'string' && typeof r === 'string');

/** The helpers, by the name generated code uses. */
export const HELPERS = {
  add: (l: unknown, r: unknown, p?: number): unknown =>
    finite(l, r) ? (l as number) + (r as number) : slow('+', l, r, p),
  sub: (l: unknown, r: unknown, p?: number): unknown =>
    finite(l, r) ? (l as number) - (r as number) : slow('-', l, r, p),
  mul: (l: unknown, r: unknown, p?: number): unknown =>
    finite(l, r) ? (l as number) * (r as number) : slow('*', l, r, p),
  div: (l: unknown, r: unknown, p?: number): unknown =>
    finite(l, r) ? (l as number) / (r as number) : slow('/', l, r, p),
  mod: (l: unknown, r: unknown, p?: number): unknown =>
    finite(l, r) ? (l as number) % (r as number) : slow('%', l, r, p),
  cat: (l: unknown, r: unknown, p?: number): unknown =>
    typeof l === 'string' && typeof r === 'string' ? l + r : slow('&', l, r, p),
  lt: (l: unknown, r: unknown, p?: number): unknown =>
    sameKind(l, r) ? (l as number) < (r as number) : slow('<', l, r, p),
  le: (l: unknown, r: unknown, p?: number): unknown =>
    sameKind(l, r) ? (l as number) <= (r as number) : slow('<=', l, r, p),
  gt: (l: unknown, r: unknown, p?: number): unknown =>
    sameKind(l, r) ? (l as number) > (r as number) : slow('>', l, r, p),
  ge: (l: unknown, r: unknown, p?: number): unknown =>
    sameKind(l, r) ? (l as number) >= (r as number) : slow('>=', l, r, p),
  eq: (l: unknown, r: unknown): boolean => l !== undefined && r !== undefined && (l === r || isDeepEqual(l, r)),
  ne: (l: unknown, r: unknown): boolean => l !== undefined && r !== undefined && !(l === r || isDeepEqual(l, r)),
  in: (l: unknown, r: unknown, p?: number): unknown => slow('in', l, r, p),
  neg: negate,
  bool: toBoolean,
  norm: (v: unknown): unknown => normalize(v, false),
  ctx: (input: unknown): unknown => (Array.isArray(input) && (input as Marked)[OUTER] === true ? input[0] : input),
  nested,
  setMember,
  readNames,
  call1: (fn: unknown, value: unknown, input: unknown, at: CallAt): unknown => callOne(fn, value, input, at),
  isArray: Array.isArray,
  isSeq: isSequence,
  hop: Object.prototype.hasOwnProperty,
};

export type Helpers = typeof HELPERS;
