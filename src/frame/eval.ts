import type { CompiledExpr, SourceLoc, Value } from '../compile/plan.js';
import { RecipeError } from '../errors/index.js';
import { evalValue, LATER, leafNow, mapLeavesNow, type LeafValue } from '../expr/index.js';
import { locationOf } from './step-errors.js';
import type { Scope } from './scope.js';

/**
 * Evaluates a plan Value in a scope (plus step-local names such as $result). A JSONata runtime error
 * becomes X008 at the expression's position in the file.
 */
export async function evaluate(
  value: Value,
  scope: Scope,
  extra?: Readonly<Record<string, unknown>>,
): Promise<unknown> {
  const now = evaluateNow(value, scope, extra);
  return now === LATER ? evaluateLater(value, scope, extra) : now;
}

/**
 * evaluate() without trying evaluateNow first: for a caller that just got LATER from it, so the value's
 * synchronous part is not walked again.
 */
export async function evaluateLater(
  value: Value,
  scope: Scope,
  extra?: Readonly<Record<string, unknown>>,
): Promise<unknown> {
  try {
    return normalise(await evalValue(value, bindingsFor(value, scope, extra, {}), scope.limits()));
  } catch (err) {
    throw asEvalError(err, value);
  }
}

/**
 * evaluate() synchronously when every expression in the value can be (expr/'s mapLeavesNow and leafNow): the value,
 * or LATER, and then evaluateLater() answers. Per item of a loop this is the whole evaluation: no promise.
 */
export function evaluateNow(value: Value, scope: Scope, extra?: Readonly<Record<string, unknown>>): unknown {
  if (value.kind === 'literal') return value.value;
  try {
    const v = evalMembersNow(value, scope, extra);
    return v === LATER ? LATER : normalise(v);
  } catch (err) {
    throw asEvalError(err, value);
  }
}

/** expr/ reports evaluation errors from the catalog already (X008, X018, X019, X005 at the expression). */
function asEvalError(err: unknown, value: Value): RecipeError {
  if (err instanceof RecipeError) return err;
  const loc = firstExprLoc(value);
  return new RecipeError(
    'X008',
    { reason: String((err as Error)?.message ?? err) },
    loc ? locationOf(loc) : undefined,
    {
      cause: err,
    },
  );
}

/**
 * Per item of a foreach or a page, most Values are constant or a bare `${ $name }` (params such as
 * `{ contactId: "${ $cid }" }`): those are answered from the scope directly, without flattening the scope into
 * bindings and running JSONata (which would give the very same value: a bound variable evaluates to itself).
 * Containers are walked as expr/'s evalValue walks them; any other expression is evaluated with the bindings
 * built once per call. LATER as soon as one member is.
 */
function evalMembersNow(value: Value, scope: Scope, extra: Readonly<Record<string, unknown>> | undefined): unknown {
  // A leaf (most values a loop item evaluates: a transform, a `when`, an assign member) needs no walk.
  if (value.kind !== 'object' && value.kind !== 'array') return memberNow(value, scope, extra, {});
  const memo: BindingsMemo = {};
  return mapLeavesNow(value, (leaf) => memberNow(leaf, scope, extra, memo));
}

function memberNow(
  leaf: LeafValue,
  scope: Scope,
  extra: Readonly<Record<string, unknown>> | undefined,
  memo: BindingsMemo,
): unknown {
  if (leaf.kind === 'literal') return leaf.value;
  if (leaf.kind === 'expr') {
    const name = bareVariable(leaf.expr);
    if (name !== undefined) {
      if (extra !== undefined && Object.hasOwn(extra, name)) return extra[name];
      const bound = scope.lookup(name, NOT_BOUND);
      if (bound !== NOT_BOUND) return bound;
    }
  }
  return leafNow(leaf, bindingsFor(leaf, scope, extra, memo), scope.limits());
}

/** What Scope.lookup answers for a name bound nowhere. */
const NOT_BOUND = Symbol('not bound');

/** The bindings built for one evaluation's expressions, shared by its members (bindingsFor). */
interface BindingsMemo {
  bindings?: Record<string, unknown>;
  all?: boolean;
}

/**
 * The bindings an expression or template can read: only the names its variables hold (a loop item's
 * expression reads two or three names, while the scope holds the inputs, the secrets and every earlier
 * step's output), added to the call's memo as members need them; every visible name when an expression
 * may read any (`$eval`). Inner frames win and `extra` wins over the scope, as in Scope.bindings.
 */
function bindingsFor(
  value: Value,
  scope: Scope,
  extra: Readonly<Record<string, unknown>> | undefined,
  memo: BindingsMemo,
): Record<string, unknown> {
  if (memo.all === true && memo.bindings) return memo.bindings;
  const names = readsOf(value);
  if (names === null) {
    memo.all = true;
    return (memo.bindings = scope.bindings(extra));
  }
  const out = (memo.bindings ??= {});
  for (const name of names) {
    if (Object.hasOwn(out, name)) continue;
    if (extra !== undefined && Object.hasOwn(extra, name)) out[name] = extra[name];
    else {
      const bound = scope.lookup(name, NOT_BOUND);
      if (bound !== NOT_BOUND) out[name] = bound;
    }
  }
  return out;
}

const readsByValue = new WeakMap<Value, readonly string[] | null>();

/** The names a value's expressions read, in containers too (null: any name), remembered per plan value. */
function readsOf(value: Value): readonly string[] | null {
  let names = readsByValue.get(value);
  if (names === undefined) {
    names = unionOfReads(partsOf(value));
    readsByValue.set(value, names);
  }
  return names;
}

function partsOf(value: Value): (string | CompiledExpr)[] {
  switch (value.kind) {
    case 'literal':
      return [];
    case 'expr':
      return [value.expr];
    case 'template':
      return [...value.parts];
    case 'object':
      return Object.values(value.entries).flatMap(partsOf);
    case 'array':
      return value.items.flatMap(partsOf);
  }
}

function unionOfReads(parts: readonly (string | CompiledExpr)[]): readonly string[] | null {
  const all = new Set<string>();
  for (const part of parts) {
    if (typeof part === 'string') continue;
    if (part.reads === undefined) return null;
    for (const name of part.reads) all.add(name);
  }
  return [...all];
}

const BARE_VARIABLE = /^\s*\$([A-Za-z_][A-Za-z0-9_]*)\s*$/;
const bareNames = new WeakMap<CompiledExpr, string | null>();

/** The variable name when the expression is exactly `$name`, else undefined (remembered per expression). */
function bareVariable(expr: CompiledExpr): string | undefined {
  let name = bareNames.get(expr);
  if (name === undefined) {
    name = BARE_VARIABLE.exec(expr.source)?.[1] ?? null;
    bareNames.set(expr, name);
  }
  return name ?? undefined;
}

/** JSONata marks result sequences with extra properties; copy them into plain arrays so they serialise cleanly. */
function normalise(v: unknown): unknown {
  if (Array.isArray(v) && (v as { sequence?: boolean }).sequence) return Array.from(v);
  return v;
}

function firstExprLoc(value: Value): SourceLoc | undefined {
  switch (value.kind) {
    case 'literal':
      return undefined;
    case 'expr':
      return value.expr.loc;
    case 'template':
      return value.parts.find((p): p is CompiledExpr => typeof p !== 'string')?.loc;
    case 'object':
      for (const v of Object.values(value.entries)) {
        const loc = firstExprLoc(v);
        if (loc) return loc;
      }
      return undefined;
    case 'array':
      for (const v of value.items) {
        const loc = firstExprLoc(v);
        if (loc) return loc;
      }
      return undefined;
  }
}

/** JSONata's $boolean for `when` and `assert`: false, null, 0, '', empty arrays and empty objects are false. */
export function truthy(v: unknown): boolean {
  if (Array.isArray(v)) return v.some(truthy);
  if (v !== null && typeof v === 'object') return Object.keys(v).length > 0;
  return Boolean(v);
}
