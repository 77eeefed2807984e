/**
 * Function values of compiled code and how they are applied, after jsonata's apply/applyInner: compiled
 * lambdas and built-ins are plain JS functions (so jsonata and host code can call them), tagged with what
 * compiled code needs to call them directly; a call in tail position returns a TailCall that the caller's
 * trampoline runs, so tail recursion does not grow the stack (as in jsonata).
 *
 * Error positions follow jsonata's: it writes the latest call site's name and position onto the function
 * object it calls (a built-in's object is shared by every expression), and an error leaving a call takes
 * the function's current marks. Each function value here keeps such a Site.
 */
import type { EvalLimits } from '../types.js';
import { BailOut, ExprError, isDecorable } from './errors.js';
import { inEvaluation, tick, withEvaluation } from './guard.js';
import type { Signature } from './signature.js';

export const LAMBDA = Symbol('jsonata.compiledLambda');
export const NATIVE = Symbol('jsonata.builtin');
/** A built-in passed on as jsonata passes it from a tail call: not wrapped, so a native HOF cannot call it. */
export const RAW = Symbol('jsonata.unwrappedBuiltin');

/** The latest call site jsonata would have written on a function object (name and position). */
export interface Site {
  token?: unknown;
  position?: number;
}

export interface LambdaInfo {
  /** Runs the body with these (validated) arguments; may return a TailCall. */
  readonly call: (args: readonly unknown[]) => unknown;
  readonly signature: Signature | undefined;
  readonly site: Site;
}

export interface NativeInfo {
  readonly name: string;
  readonly impl: (...args: unknown[]) => unknown;
  readonly signature: Signature;
  readonly site: Site;
}

/** A function value: what `$f := function(...) {...}` or `$uppercase` evaluates to. */
export type FnValue = ((...args: unknown[]) => unknown) & {
  [LAMBDA]?: LambdaInfo;
  [NATIVE]?: NativeInfo;
  [RAW]?: 'builtin' | 'lambda';
  arity?: number;
};

/** What a tail call names as its function: the node of the procedure (for jsonata's error marks). */
export interface ProcNode {
  readonly type: string;
  readonly position?: number;
  readonly value?: unknown;
}

/**
 * A call in tail position of a lambda body (jsonata's thunk): the trampoline of whoever applied the lambda
 * evaluates its function, then its arguments, then applies it; so, as in jsonata, an error on the way is
 * not marked with the enclosing call's position.
 */
export class TailCall {
  constructor(
    readonly proc: () => unknown,
    readonly args: () => unknown[],
    readonly procNode: ProcNode,
  ) {}
}

/**
 * A compiled lambda as a function value. Called from outside compiled code (by jsonata, or by host code
 * after the evaluation that made it ended), it runs as an evaluation of its own, bounded like the one that
 * made it.
 */
export function makeLambda(
  call: (args: readonly unknown[]) => unknown,
  arity: number,
  signature: Signature | undefined,
  limits: EvalLimits | undefined,
): FnValue {
  const fn: FnValue = (...args: unknown[]) =>
    inEvaluation()
      ? applyFunction(fn, args, null)
      : withEvaluation(renewed(limits), () => applyFunction(fn, args, null));
  fn[LAMBDA] = { call, signature, site: {} };
  fn.arity = arity;
  return fn;
}

function renewed(limits: EvalLimits | undefined): EvalLimits | undefined {
  return limits && { ...limits, deadline: limits.now() + limits.timeoutMs };
}

/** A built-in as a function value; `arity` is what jsonata's implementation declares (for $map and friends). */
export function makeNative(
  name: string,
  impl: (...args: unknown[]) => unknown,
  signature: Signature,
  arity: number,
): FnValue {
  const fn: FnValue = (...args: unknown[]) => withEvaluation(undefined, () => applyFunction(fn, args, null));
  fn[NATIVE] = { name, impl, signature, site: {} };
  fn.arity = arity;
  return fn;
}

/**
 * jsonata hands the arguments of a tail call on unwrapped: a built-in is then an object with no `apply`,
 * a lambda an object with an `apply` method but not a function, and the built-ins that call their function
 * argument fail with a TypeError where jsonata's do. This gives function values that behave so (calls
 * through applyFunction work, as jsonata's own calls do).
 */
export function unwrappedInTailCall(value: unknown): unknown {
  if (typeof value !== 'function') return value;
  const fn = value as FnValue;
  if (fn[NATIVE] !== undefined) {
    const raw: FnValue = () => {
      throw new TypeError('func.apply is not a function');
    };
    raw[NATIVE] = fn[NATIVE];
    raw[RAW] = 'builtin';
    raw.arity = fn.arity;
    return raw;
  }
  if (fn[LAMBDA] !== undefined) {
    const raw: FnValue = (...args: unknown[]) => fn(...args);
    raw[LAMBDA] = fn[LAMBDA];
    raw[RAW] = 'lambda';
    raw.arity = fn.arity;
    return raw;
  }
  return value;
}

/**
 * Calls a function argument the way a jsonata built-in does: `role` is how its code calls it, either
 * `name.apply` (a method call, which a jsonata lambda object answers) or `name` (a plain call).
 */
export function callAs(role: string, fn: unknown, ...args: unknown[]): unknown {
  const viaApply = role.endsWith('.apply');
  if (fn === undefined || fn === null) {
    if (viaApply) throw new TypeError(`Cannot read properties of ${String(fn)} (reading 'apply')`);
    throw new TypeError(`${role} is not a function`);
  }
  const raw = typeof fn === 'function' ? (fn as FnValue)[RAW] : undefined;
  if (typeof fn !== 'function' || raw === 'builtin' || (raw === 'lambda' && !viaApply))
    throw new TypeError(`${role} is not a function`);
  return (fn as (...a: unknown[]) => unknown)(...args);
}

/** jsonata's getFunctionArity. */
export function functionArity(fn: unknown): number {
  const f = fn as { arity?: unknown; implementation?: unknown; length?: unknown; arguments?: unknown[] };
  if (typeof f.arity === 'number') return f.arity;
  if (typeof f.implementation === 'function') return (f.implementation as { length: number }).length;
  if (typeof f.length === 'number') return f.length;
  return f.arguments?.length ?? 0;
}

/**
 * A function passed as an argument, as jsonata passes it: wrapped in a closure that applies it with no
 * context (so a built-in's missing `-` argument is not taken from the caller's context).
 */
export function wrapFunctionArgument(arg: unknown): FnValue {
  const closure: FnValue = (...params: unknown[]) => applyFunction(arg, params, null);
  closure.arity = functionArity(arg);
  return closure;
}

/** Marks of functions jsonata would hold as JS functions (closures, host functions): set by tail calls only. */
const foreignSites = new WeakMap<object, Site>();

/** The marks of a function value (undefined for a value that is no function). */
function siteOf(proc: unknown, create: boolean): Site | undefined {
  if (typeof proc !== 'function') return undefined;
  const fn = proc as FnValue;
  const info = fn[LAMBDA] ?? fn[NATIVE];
  if (info !== undefined) return info.site;
  let site = foreignSites.get(fn);
  if (site === undefined && create) {
    site = {};
    foreignSites.set(fn, site);
  }
  return site;
}

/** What jsonata's evaluateFunction writes on a function object before calling it (not on a JS function). */
export function markCallSite(proc: unknown, token: unknown, position: number | undefined): void {
  if (!isMarkedFunction(proc)) return;
  const site = siteOf(proc, true) as Site;
  site.token = token;
  site.position = position;
}

/** jsonata's apply: the call, then the trampoline for tail calls; `context` fills `-` arguments. */
export function applyFunction(proc: unknown, args: readonly unknown[], context: unknown): unknown {
  let result = applyMarked(proc, args, context);
  while (result instanceof TailCall) {
    tick();
    const procNode = result.procNode;
    const next = result.proc();
    if (next === undefined || next === null || (typeof next !== 'object' && typeof next !== 'function'))
      throw propertyOnPrimitive(next, procNode.type === 'variable' ? 'token' : 'position');
    const site = siteOf(next, true);
    if (site !== undefined) {
      if (procNode.type === 'variable') site.token = procNode.value;
      site.position = procNode.position;
    }
    result = applyMarked(next, result.args(), context);
  }
  return result;
}

/** jsonata's applyInner with its catch: an error leaving the call takes the function's marks. */
function applyMarked(proc: unknown, args: readonly unknown[], context: unknown): unknown {
  try {
    return applyInner(proc, args, context);
  } catch (err) {
    const site = siteOf(proc, false);
    if (site !== undefined && isDecorable(err)) {
      if (err.token === undefined && site.token !== undefined) err.token = site.token;
      err.position = site.position || err.position;
    }
    throw err;
  }
}

function applyInner(proc: unknown, args: readonly unknown[], context: unknown): unknown {
  if (typeof proc === 'function') {
    const fn = proc as FnValue;
    const lambda = fn[LAMBDA];
    if (lambda !== undefined) {
      tick();
      return lambda.call(lambda.signature ? lambda.signature.validate(args, context) : args);
    }
    const native = fn[NATIVE];
    if (native !== undefined) return native.impl(...native.signature.validate(args, context));
    const result = (proc as (...a: unknown[]) => unknown).apply(context, args as unknown[]);
    if (isPromise(result)) throw new BailOut('a host function answered a promise');
    return result;
  }
  if (proc !== null && typeof proc === 'object') {
    const p = proc as { _jsonata_lambda?: unknown; _jsonata_function?: unknown };
    if (p._jsonata_lambda === true || p._jsonata_function === true)
      throw new BailOut('a function value made by jsonata');
  }
  throw new ExprError('T1006');
}

/** True for function values jsonata would hold as objects (lambdas and built-ins), whose call sites it marks. */
export function isMarkedFunction(proc: unknown): boolean {
  return (
    typeof proc === 'function' && ((proc as FnValue)[LAMBDA] !== undefined || (proc as FnValue)[NATIVE] !== undefined)
  );
}

export function isPromise(value: unknown): boolean {
  return value !== null && typeof value === 'object' && typeof (value as { then?: unknown }).then === 'function';
}

/** The TypeError jsonata's trampoline hits when a tail call's target is not an object (it sets a property on it). */
function propertyOnPrimitive(value: unknown, property: string): TypeError {
  if (value === undefined || value === null)
    return new TypeError(`Cannot set properties of ${String(value)} (setting '${property}')`);
  return new TypeError(`Cannot create property '${property}' on ${typeof value} '${String(value)}'`);
}
