/**
 * JSONata's sequences, as the compiled code keeps them. jsonata marks the arrays it builds with own string
 * properties (`sequence`, `keepSingleton`, `cons`, `outerWrapper`) and strips them from its result with a
 * copy. Here the marks are symbols, so they never show in JSON, `Object.keys` or a run report, and the
 * sequence mark holds the number of the evaluation that made the array: once that evaluation is over the
 * array is a plain array to every later one (what jsonata's copy achieves), and a result needs no cleaning
 * pass. Arrays the expression did not build (input data, bound values) are never marked.
 */

/** The array is a sequence: JSONata unwraps it when it has one item and drops it when it is empty. */
export const SEQ = Symbol('jsonata.sequence');
/** A sequence that stays an array even with one item (`[]` after a step: keepArray). */
export const KEEP = Symbol('jsonata.keepSingleton');
/** An array built by an array constructor inside a path: never flattened into the path's result. */
export const CONS = Symbol('jsonata.cons');
/** The input of an evaluation was an array: it is one context value, wrapped in a one-item sequence. */
export const OUTER = Symbol('jsonata.outerWrapper');

/** An array with the sequence marks a compiled expression may set. */
export type Marked = unknown[] & { [SEQ]?: number; [KEEP]?: boolean; [CONS]?: boolean; [OUTER]?: boolean };

/** The number of the evaluation under way (see guard.ts); sequences made in another one are plain arrays. */
let evaluation = 1;

/** Sequences this evaluation put inside an object or array (see settle). */
let nestedSequences: Marked[] = [];

/** Starts the marks of a new evaluation. */
export function nextEvaluation(): void {
  evaluation++;
  if (nestedSequences.length > 0) nestedSequences = [];
}

/** Notes a value stored inside an object or array this evaluation builds; gives it back. */
export function nested<T>(value: T): T {
  if (Array.isArray(value) && (value as Marked)[SEQ] === evaluation) nestedSequences.push(value as Marked);
  return value;
}

/**
 * At the end of an evaluation, removes the marks from the sequences its result can show: the result
 * itself and the sequences stored inside objects and arrays. They mean nothing to later evaluations
 * already; removing them keeps them out of deep comparisons (which look at symbol keys too).
 */
export function settle(result: unknown): void {
  if (nestedSequences.length > 0) {
    for (const s of nestedSequences) unmark(s);
    nestedSequences = [];
  }
  if (Array.isArray(result) && (result as Marked)[SEQ] !== undefined) unmark(result as Marked);
}

function unmark(s: Marked): void {
  delete s[SEQ];
  if (s[KEEP] !== undefined) delete s[KEEP];
}

/** A new, empty sequence. */
export function createSequence(): Marked {
  const s: Marked = [];
  s[SEQ] = evaluation;
  return s;
}

/** A new one-item sequence (jsonata's createSequence(x): the item is pushed even when undefined). */
export function sequenceOf(item: unknown): Marked {
  const s: Marked = [item];
  s[SEQ] = evaluation;
  return s;
}

/** Marks an array this evaluation built as a sequence. */
export function markSequence(arr: unknown[]): Marked {
  (arr as Marked)[SEQ] = evaluation;
  return arr as Marked;
}

export function isSequence(value: unknown): value is Marked {
  return Array.isArray(value) && (value as Marked)[SEQ] === evaluation;
}

export function isCons(value: unknown): boolean {
  return Array.isArray(value) && (value as Marked)[CONS] === true;
}

/**
 * What jsonata's evaluate() does to every node's result: a sequence with no item is undefined, one item
 * is that item unless the sequence keeps singletons; `keepArray` (a `[]` on the node) marks it first.
 */
export function normalize(result: unknown, keepArray: boolean): unknown {
  if (!Array.isArray(result) || (result as Marked)[SEQ] !== evaluation) return result;
  const seq = result as Marked;
  if (keepArray) seq[KEEP] = true;
  if (seq.length === 0) return undefined;
  if (seq.length === 1) return seq[KEEP] === true ? seq : seq[0];
  return seq;
}

/** jsonata's fn.append: undefined sides are ignored; anything else is concatenated as arrays. */
export function append(arg1: unknown, arg2: unknown): unknown {
  if (arg1 === undefined) return arg2;
  if (arg2 === undefined) return arg1;
  const left: unknown[] = Array.isArray(arg1) ? arg1 : sequenceOf(arg1);
  const right: unknown[] = Array.isArray(arg2) ? arg2 : [arg2];
  // Array.prototype.concat copies no marks: the result is a plain array, as jsonata's is.
  return left.concat(right);
}

/** jsonata's fn.lookup: the member `key` of an object, or of every object in an array (flattened one level). */
export function lookup(input: unknown, key: string): unknown {
  if (Array.isArray(input)) {
    const result = createSequence();
    for (let i = 0; i < input.length; i++) {
      const res = lookup(input[i], key);
      if (res === undefined) continue;
      if (Array.isArray(res)) for (let j = 0; j < res.length; j++) result.push(res[j]);
      else result.push(res);
    }
    return result;
  }
  if (
    input !== null &&
    typeof input === 'object' &&
    Object.prototype.hasOwnProperty.call(input, key) &&
    !isJsonataFunction(input)
  )
    return (input as Record<string, unknown>)[key];
  return undefined;
}

/** lookup() for an object that is not an array: its own member `key`. */
export function member(input: object, key: string): unknown {
  return Object.prototype.hasOwnProperty.call(input, key) && !isJsonataFunction(input)
    ? (input as Record<string, unknown>)[key]
    : undefined;
}

/** A function value made by jsonata itself (a lambda or a built-in), which is an object, not a JS function. */
export function isJsonataFunction(value: object): boolean {
  const v = value as { _jsonata_lambda?: unknown; _jsonata_function?: unknown };
  return v._jsonata_lambda === true || v._jsonata_function === true;
}

/** jsonata's flatten (used by the wildcard): every nested array spread, recursively. */
export function flattenDeep(arg: unknown, into: unknown[] = []): unknown[] {
  if (Array.isArray(arg)) for (const item of arg) flattenDeep(item, into);
  else into.push(arg);
  return into;
}
