/** JSONata's numeric and aggregate built-ins, ported from jsonata 2.x (same results, same error codes). */
import { ExprError } from '../runtime/errors.js';
import { evaluationRandom } from '../runtime/guard.js';

type Numbers = readonly number[] | undefined;

export function sum(args: Numbers): number | undefined {
  if (args === undefined) return undefined;
  let total = 0;
  for (const n of args) total += n;
  return total;
}

export function count(args: readonly unknown[] | undefined): number {
  return args === undefined ? 0 : args.length;
}

export function max(args: Numbers): number | undefined {
  if (args === undefined || args.length === 0) return undefined;
  return chunked(Math.max, args);
}

export function min(args: Numbers): number | undefined {
  if (args === undefined || args.length === 0) return undefined;
  return chunked(Math.min, args);
}

/** Math.max/min over any number of values: spread in chunks, so a long array cannot exhaust the stack. */
function chunked(f: (...values: number[]) => number, args: readonly number[]): number {
  const CHUNK = 8192;
  if (args.length <= CHUNK) return f(...args);
  let acc = f(...args.slice(0, CHUNK));
  for (let i = CHUNK; i < args.length; i += CHUNK) acc = f(acc, ...args.slice(i, i + CHUNK));
  return acc;
}

export function average(args: Numbers): number | undefined {
  if (args === undefined || args.length === 0) return undefined;
  let total = 0;
  for (const n of args) total += n;
  return total / args.length;
}

const DECIMAL = /^-?[0-9]+(\.[0-9]+)?([Ee][-+]?[0-9]+)?$/;
const PREFIXED = /^(0[xX][0-9A-Fa-f]+)|(0[oO][0-7]+)|(0[bB][0-1]+)$/;

export function number(arg: unknown): number | undefined {
  if (arg === undefined) return undefined;
  if (typeof arg === 'number') return arg;
  if (typeof arg === 'string' && DECIMAL.test(arg) && !Number.isNaN(parseFloat(arg)) && Number.isFinite(Number(arg)))
    return parseFloat(arg);
  if (typeof arg === 'string' && PREFIXED.test(arg)) return Number(arg);
  if (arg === true) return 1;
  if (arg === false) return 0;
  throw new ExprError('D3030', { value: arg, index: 1 });
}

export function abs(arg: number | undefined): number | undefined {
  return arg === undefined ? undefined : Math.abs(arg);
}

export function floor(arg: number | undefined): number | undefined {
  return arg === undefined ? undefined : Math.floor(arg);
}

export function ceil(arg: number | undefined): number | undefined {
  return arg === undefined ? undefined : Math.ceil(arg);
}

/** Round half to even, to `precision` decimal places (shifted as text, as jsonata does, to avoid float error). */
export function round(arg: number | undefined, precision?: number): number | undefined {
  if (arg === undefined) return undefined;
  let value = arg;
  if (precision) {
    const parts = value.toString().split('e');
    value = +`${parts[0]}e${parts[1] ? +parts[1] + precision : precision}`;
  }
  let result = Math.round(value);
  const diff = result - value;
  if (Math.abs(diff) === 0.5 && Math.abs(result % 2) === 1) result = result - 1;
  if (precision) {
    const parts = result.toString().split('e');
    result = +`${parts[0]}e${parts[1] ? +parts[1] - precision : -precision}`;
  }
  return Object.is(result, -0) ? 0 : result;
}

export function sqrt(arg: number | undefined): number | undefined {
  if (arg === undefined) return undefined;
  if (arg < 0) throw new ExprError('D3060', { index: 1, value: arg });
  return Math.sqrt(arg);
}

export function power(arg: number | undefined, exp: number): number | undefined {
  if (arg === undefined) return undefined;
  const result = Math.pow(arg, exp);
  if (!Number.isFinite(result)) throw new ExprError('D3061', { index: 1, value: arg, exp });
  return result;
}

export function random(): number {
  return evaluationRandom();
}
