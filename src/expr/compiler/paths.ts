/**
 * Paths, their steps and predicates, order-by and group-by, after jsonata's evaluatePath, evaluateStep,
 * evaluateFilter, evaluateSortExpression and evaluateGroupExpression (jsonata 2.x): the same flattening
 * and singleton rules, the same errors. A path of plain member names over objects takes a direct route
 * that gives the same value without building the intermediate sequences.
 */
import { ExprError } from '../runtime/errors.js';
import { tick } from '../runtime/guard.js';
import {
  append,
  createSequence,
  isCons,
  isJsonataFunction,
  isSequence,
  KEEP,
  lookup,
  markSequence,
  member,
  nested,
  normalize,
  OUTER,
  sequenceOf,
  type Marked,
} from '../runtime/sequence.js';
import { isArrayOfNumbers, isNumeric, toBoolean } from '../runtime/values.js';
import { mergeSort, setMember } from '../functions/higher-order.js';
import type { GroupNode, Node, Stage } from './ast.js';
import type { Frame, StaticScope } from './scopes.js';
import type { Compiler, Ev, StepEv } from './types.js';

/** A path node (jsonata's evaluatePath); the node-level post-processing is the caller's. */
export function compilePath(c: Compiler, node: Node, scope: StaticScope): Ev {
  const steps = node.steps ?? [];
  const stepEvs: StepEv[] = steps.map((step, i) =>
    compileStep(c, step, scope, i === steps.length - 1, steps[i + 1]?.type === 'sort'),
  );
  const firstIsVariable = steps[0]?.type === 'variable';
  const consFirst = steps[0]?.consarray === true ? c.node(steps[0], scope) : undefined;
  const keepSingletonArray = node.keepSingletonArray === true;
  const group = node.group ? compileGroup(c, node.group, scope) : undefined;

  const generic: Ev = (input, frame) => {
    let inputSequence: ArrayLike<unknown> = Array.isArray(input) && !firstIsVariable ? input : sequenceOf(input);
    let resultSequence: unknown;
    for (let i = 0; i < stepEvs.length; i++) {
      if (i === 0 && consFirst) resultSequence = consFirst(inputSequence, frame);
      else resultSequence = (stepEvs[i] as StepEv)(inputSequence, frame);
      if (resultSequence === undefined || (resultSequence as ArrayLike<unknown>).length === 0) break;
      inputSequence = resultSequence as ArrayLike<unknown>;
    }
    if (keepSingletonArray) {
      if (Array.isArray(resultSequence) && isCons(resultSequence) && !isSequence(resultSequence))
        resultSequence = sequenceOf(resultSequence);
      // The mark only matters on a sequence (and an input array must not be touched).
      if (isSequence(resultSequence)) resultSequence[KEEP] = true;
    }
    if (group) resultSequence = group(resultSequence, frame);
    return resultSequence;
  };
  if (!isNamePath(node)) return generic;
  const { start, names, generic: normalized } = namePathParts(c, node, scope, generic);
  if (start === undefined) return (input, frame) => readNames(input, names, input, frame, normalized);
  return (input, frame) => readNames(start(input, frame), names, input, frame, normalized);
}

/**
 * A path of member names: the member chain itself. As long as every value on the way is an object (not
 * an array) this is exactly what the general path gives; at the first array it hands over to it, whose
 * value is normalized here, so that the node needs no wrapper for the direct route.
 */
export function namePathParts(
  c: Compiler,
  node: Node,
  scope: StaticScope,
  general?: Ev,
): { variable?: string; start?: Ev; names: readonly string[]; generic: Ev } {
  const steps = node.steps ?? [];
  const first = steps[0] as Node;
  const variable = first.type === 'variable' ? String(first.value) : undefined;
  const start = variable !== undefined ? c.variable(variable, scope) : undefined;
  const names = steps.slice(start ? 1 : 0).map((s) => String(s.value));
  const path = general ?? c.node(node, scope);
  // The node's own closure already normalizes (see compile.ts); a general path given here does not.
  const generic: Ev = general ? (input, frame) => normalize(path(input, frame), false) : path;
  return variable !== undefined && start !== undefined ? { variable, start, names, generic } : { names, generic };
}

/** A path step: its node per item of the sequence before it, filtered, then flattened one level. */
function compileStep(c: Compiler, step: Node, scope: StaticScope, lastStep: boolean, sortNext: boolean): StepEv {
  const stages = (step.stages ?? []).map((stage) => compileFilter(c, stage, scope));
  if (step.type === 'sort') {
    const sort = compileSort(c, step, scope);
    return (input, frame) => {
      let result = sort(input, frame);
      for (const stage of stages) result = stage(result, frame);
      return result;
    };
  }
  const ev = namedStep(step) ?? c.generated(step, scope);
  return (input, frame) => {
    // jsonata collects every item's value, then flattens them one level into a new sequence, except
    // that the last step's only value is kept as it is when it is an array that is not a sequence. The
    // values go into an array sized for one per item; when none of them is to be spread, that array is
    // the result.
    const values: unknown[] = new Array(input.length);
    let count = 0;
    let spread = false;
    for (let i = 0; i < input.length; i++) {
      tick();
      let res = ev(input[i], frame);
      for (const stage of stages) res = stage(res, frame);
      if (res === undefined) continue;
      if (Array.isArray(res) && !isCons(res)) spread = true;
      values[count++] = res;
    }
    values.length = count;
    if (count === 1) {
      const first = values[0];
      if (lastStep && Array.isArray(first) && !isSequence(first)) return first;
      // Before another step, one non-empty array is read as it is: copying its items into a sequence
      // first would change nothing the next step sees (an order-by hands a one-item input back: not there).
      if (!lastStep && !sortNext && Array.isArray(first) && first.length > 0 && !isCons(first)) return first;
    }
    if (!spread) return markSequence(values);
    const flat = createSequence();
    for (const res of values) pushFlat(flat, res);
    return flat;
  };
}

/** A member-name step with nothing on it: its value per item without the general node machinery. */
function namedStep(step: Node): Ev | undefined {
  if (step.type !== 'name' || step.stages || step.predicate || step.group || step.keepArray) return undefined;
  const name = String(step.value);
  return (item) => {
    if (Array.isArray(item)) return normalize(lookup(item, name), false);
    // A member's value is already what jsonata's evaluate() would make of it.
    return item !== null && typeof item === 'object' ? member(item, name) : undefined;
  };
}

/** Adds one step value to a path's result: an array is spread (unless an array constructor made it). */
function pushFlat(flat: unknown[], res: unknown): void {
  if (!Array.isArray(res) || isCons(res)) flat.push(res);
  else for (let j = 0; j < res.length; j++) flat.push(res[j]);
}

/** A `[...]` predicate (jsonata's evaluateFilter): a number picks by index, anything else keeps the truthy items. */
export function compileFilter(
  c: Compiler,
  stage: Stage,
  scope: StaticScope,
): (input: unknown, frame: Frame) => unknown {
  const predicate = stage.expr as Node;
  if (predicate.type === 'number') {
    const literal = Math.floor(predicate.value as number);
    return (input) => {
      const items: ArrayLike<unknown> = Array.isArray(input) ? input : sequenceOf(input);
      const index = literal < 0 ? items.length + literal : literal;
      const item = items[index];
      if (item === undefined) return createSequence();
      if (Array.isArray(item)) return item;
      return sequenceOf(item);
    };
  }
  const ev = c.generated(predicate, scope);
  return (input, frame) => {
    const results = createSequence();
    const items: ArrayLike<unknown> = Array.isArray(input) ? input : sequenceOf(input);
    for (let index = 0; index < items.length; index++) {
      tick();
      const item = items[index];
      let res = ev(item, frame);
      if (isNumeric(res)) res = [res];
      if (isArrayOfNumbers(res)) {
        for (const ires of res as number[]) {
          let ii = Math.floor(ires);
          if (ii < 0) ii = items.length + ii;
          if (ii === index) results.push(item);
        }
      } else if (toBoolean(res)) results.push(item);
    }
    return results;
  };
}

/** Order-by `^(...)`: jsonata's merge sort with its term comparator (undefined last, T2007/T2008). */
function compileSort(c: Compiler, node: Node, scope: StaticScope): StepEv {
  const terms = (node.terms ?? []).map((t) => ({ descending: t.descending, ev: c.generated(t.expression, scope) }));
  const position = node.position;
  return (input, frame) => {
    const swap = (a: unknown, b: unknown): boolean => {
      let comp = 0;
      for (let index = 0; comp === 0 && index < terms.length; index++) {
        const term = terms[index] as (typeof terms)[number];
        const aa = term.ev(a, frame);
        const bb = term.ev(b, frame);
        const atype = typeof aa;
        const btype = typeof bb;
        if (atype === 'undefined') {
          comp = btype === 'undefined' ? 0 : 1;
          continue;
        }
        if (btype === 'undefined') {
          comp = -1;
          continue;
        }
        if (!(atype === 'string' || atype === 'number') || !(btype === 'string' || btype === 'number'))
          throw new ExprError('T2008', { position, value: !(atype === 'string' || atype === 'number') ? aa : bb });
        if (atype !== btype) throw new ExprError('T2007', { position, value: aa, value2: bb });
        if (aa === bb) continue;
        comp = (aa as number) < (bb as number) ? -1 : 1;
        if (term.descending) comp = -comp;
      }
      return comp === 1;
    };
    if (input.length <= 1) return input;
    return mergeSort(Array.from(input), swap);
  };
}

/** An object constructor or a group-by (jsonata's evaluateGroupExpression). */
export function compileGroup(c: Compiler, group: GroupNode, scope: StaticScope): Ev {
  const pairs = group.lhs.map(([k, v]) => ({ key: c.node(k, scope), value: c.node(v, scope) }));
  const position = group.position;
  const staticKeys = group.lhs.map(([k]) =>
    k.type === 'string' && !k.predicate && !k.group ? (k.value as string) : undefined,
  );
  const simple =
    staticKeys.every((k) => k !== undefined && k !== '_jsonata_lambda' && k !== '_jsonata_function') &&
    new Set(staticKeys).size === staticKeys.length;

  const generic: Ev = (input, frame) => {
    const groups = new Map<string, { data: unknown; exprIndex: number }>();
    let items: ArrayLike<unknown> = Array.isArray(input) ? input : sequenceOf(input);
    if (items.length === 0) items = [undefined];
    for (let i = 0; i < items.length; i++) {
      const item = items[i];
      for (let pairIndex = 0; pairIndex < pairs.length; pairIndex++) {
        const key = (pairs[pairIndex] as (typeof pairs)[number]).key(item, frame);
        if (typeof key !== 'string' && key !== undefined) throw new ExprError('T1003', { position, value: key });
        if (key === undefined) continue;
        if (key === '_jsonata_lambda' || key === '_jsonata_function')
          throw new ExprError('D1013', { position, value: key });
        const entry = groups.get(key);
        if (entry === undefined) groups.set(key, { data: item, exprIndex: pairIndex });
        else if (entry.exprIndex !== pairIndex) throw new ExprError('D1009', { position, value: key });
        else entry.data = append(entry.data, item);
      }
    }
    // jsonata keeps its groups in an object: integer-like keys come first, in ascending order.
    const holder: Record<string, { data: unknown; exprIndex: number }> = {};
    for (const [key, entry] of groups) setMember(holder, key, entry);
    const result: Record<string, unknown> = {};
    for (const key of Object.keys(holder)) {
      const entry = holder[key] as { data: unknown; exprIndex: number };
      const value = (pairs[entry.exprIndex] as (typeof pairs)[number]).value(entry.data, frame);
      if (value !== undefined) setMember(result, key, nested(value));
    }
    return result;
  };
  if (!simple) return generic;
  // Constant, distinct keys and one context value: one group per pair, built directly.
  const keys = staticKeys as string[];
  const members = orderOfKeys(keys).map((i) => ({
    key: keys[i] as string,
    proto: keys[i] === '__proto__',
    value: (pairs[i] as (typeof pairs)[number]).value,
  }));
  return (input, frame) => {
    if (Array.isArray(input)) return generic(input, frame);
    const result: Record<string, unknown> = {};
    for (let i = 0; i < members.length; i++) {
      const member = members[i] as (typeof members)[number];
      const value = member.value(input, frame);
      if (value === undefined) continue;
      if (member.proto) setMember(result, member.key, nested(value));
      else result[member.key] = nested(value);
    }
    return result;
  };
}

/** Pair indexes in the order jsonata evaluates and emits them: object key order of the constant keys. */
function orderOfKeys(keys: readonly string[]): number[] {
  const holder: Record<string, number> = {};
  keys.forEach((k, i) => setMember(holder, k, i));
  return Object.keys(holder).map((k) => holder[k] as number);
}

/** The wildcard `*`: every member value of the context object, arrays flattened (jsonata's evaluateWildcard). */
export function evaluateWildcard(input: unknown): unknown {
  let results: unknown = createSequence();
  let value = input;
  if (Array.isArray(value) && (value as Marked)[OUTER] === true && value.length > 0) value = value[0];
  if (value !== null && typeof value === 'object' && !isJsonataFunction(value)) {
    for (const key of Object.keys(value)) {
      const member = (value as Record<string, unknown>)[key];
      if (Array.isArray(member)) results = append(results, flatten(member));
      else (results as unknown[]).push(member);
    }
  }
  return results;
}

function flatten(arg: unknown, into: unknown[] = []): unknown[] {
  if (Array.isArray(arg)) for (const item of arg) flatten(item, into);
  else into.push(arg);
  return into;
}

/** The descendants operator `**` (jsonata's evaluateDescendants). */
export function evaluateDescendants(input: unknown): unknown {
  if (input === undefined) return undefined;
  const results = createSequence();
  const recurse = (value: unknown): void => {
    if (!Array.isArray(value)) results.push(value);
    if (Array.isArray(value)) for (const member of value) recurse(member);
    else if (value !== null && typeof value === 'object' && !isJsonataFunction(value))
      for (const key of Object.keys(value)) recurse((value as Record<string, unknown>)[key]);
  };
  recurse(input);
  return results.length === 1 ? results[0] : results;
}

/**
 * True for a path of member names only (`a.b.c`, `$x.b.c`), with no predicate, group or `[]` anywhere. Its
 * direct route gives a member's value, which is already what jsonata's evaluate() would make of it.
 */
export function isNamePath(node: Node): boolean {
  const steps = node.steps ?? [];
  if (node.type !== 'path' || node.group || node.keepSingletonArray || node.keepArray || steps.length === 0)
    return false;
  return steps.every(
    (s, i) =>
      (s.type === 'name' || (i === 0 && s.type === 'variable' && s.value !== '')) &&
      !s.stages &&
      !s.predicate &&
      !s.group &&
      !s.keepArray,
  );
}

/** The member chain `names` from `cur`; at the first array on the way, the general path's value instead. */
export function readNames(from: unknown, names: readonly string[], input: unknown, frame: Frame, generic: Ev): unknown {
  let cur = from;
  if (Array.isArray(cur)) return generic(input, frame);
  for (let i = 0; i < names.length; i++) {
    if (cur === null || typeof cur !== 'object') return undefined;
    cur = member(cur, names[i] as string);
    if (cur === undefined) return undefined;
    if (Array.isArray(cur)) {
      // The last member is an array: the path gives it as it is unless it is a sequence.
      if (i === names.length - 1 && !isSequence(cur)) return cur;
      return generic(input, frame);
    }
  }
  return cur;
}
