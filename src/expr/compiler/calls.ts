/**
 * Function calls, `~>`, lambdas and tail calls, after jsonata's evaluateFunction, evaluateApplyExpression,
 * evaluateLambda and apply (jsonata 2.x): arguments evaluated in order, functions passed as arguments
 * wrapped (applied with no context), errors given the call's position and the function's name.
 */
import { ExprError, isDecorable } from '../runtime/errors.js';
import {
  applyFunction,
  makeLambda,
  markCallSite,
  NATIVE,
  type FnValue,
  TailCall,
  unwrappedInTailCall,
  wrapFunctionArgument,
} from '../runtime/functions.js';
import { currentLimits } from '../runtime/guard.js';
import { normalize } from '../runtime/sequence.js';
import { parseSignature } from '../runtime/signature.js';
import { isFunction } from '../runtime/values.js';
import { lhsOf, type Node } from './ast.js';
import { UNSET, type StaticScope } from './scopes.js';
import type { Compiler, Ev } from './types.js';

/** The name jsonata gives the called function in its errors. */
function procName(proc: Node): unknown {
  return proc.type === 'path' ? proc.steps?.[0]?.value : proc.value;
}

/** A call `f(args)`; with `applied`, the left side of a `~>` comes first (not wrapped, as in jsonata). */
export function compileCall(c: Compiler, node: Node, scope: StaticScope, applied?: Ev): Ev {
  const procNode = node.procedure as Node;
  const proc = c.node(procNode, scope);
  const args = (node.arguments ?? []).map((a) => c.node(a, scope));
  const name = procName(procNode);
  const position = node.position;
  // `uppercase(x)` for `$uppercase(x)`: jsonata's T1005 hint, when a variable of that name exists.
  const forgotDollar =
    procNode.type === 'path' && procNode.steps?.[0] !== undefined
      ? c.variable(String(procNode.steps[0].value), scope)
      : undefined;
  const site = { name, position };
  if (applied === undefined && args.length === 1) {
    const arg = args[0] as Ev;
    return (input, frame) => {
      const fn = proc(input, frame);
      if (fn === undefined && forgotDollar && forgotDollar(input, frame))
        throw new ExprError('T1005', { position, token: name });
      return callOne(fn, arg(input, frame), input, site);
    };
  }
  return (input, frame) => {
    const first = applied ? applied(input, frame) : undefined;
    const fn = proc(input, frame);
    if (fn === undefined && forgotDollar && forgotDollar(input, frame))
      throw new ExprError('T1005', { position, token: name });
    const values: unknown[] = applied ? [first] : [];
    for (const arg of args) {
      const value = arg(input, frame);
      values.push(isFunction(value) ? wrapFunctionArgument(value) : value);
    }
    return callGeneral(fn, values, input, site);
  };
}

/** Where a call is: its function's name as jsonata reports it, and its position. */
export interface CallAt {
  readonly name: unknown;
  readonly position: number | undefined;
}

/** A call through applyFunction, with jsonata's marks on the function and on errors. */
export function callGeneral(fn: unknown, values: unknown[], input: unknown, at: CallAt): unknown {
  markCallSite(fn, at.name, at.position);
  try {
    return applyFunction(fn, values, input);
  } catch (err) {
    if (isDecorable(err)) {
      if (!err.position) err.position = at.position;
      if (!err.token) err.token = at.name;
    }
    throw err;
  }
}

/**
 * The commonest call, a built-in on one value ($string(x), $lowercase(x), $count(x)): when the value needs
 * no validation, the implementation is called directly, with the marks applyFunction would set.
 */
export function callOne(fn: unknown, value: unknown, input: unknown, at: CallAt): unknown {
  const native = typeof fn === 'function' ? (fn as FnValue)[NATIVE] : undefined;
  if (native === undefined || isFunction(value) || !native.signature.directOne(value))
    return callGeneral(fn, [isFunction(value) ? wrapFunctionArgument(value) : value], input, at);
  native.site.token = at.name;
  native.site.position = at.position;
  try {
    return native.impl(value);
  } catch (err) {
    if (isDecorable(err)) {
      if (err.token === undefined) err.token = at.name;
      err.position = at.position || err.position;
      if (!err.token) err.token = at.name;
    }
    throw err;
  }
}

/** `lhs ~> rhs`: a call with lhs first, or the composition of two functions, or rhs applied to lhs. */
export function compileApply(c: Compiler, node: Node, scope: StaticScope): Ev {
  const lhs = c.node(lhsOf(node), scope);
  const rhsNode = node.rhs as Node;
  if (rhsNode.type === 'function') return compileCall(c, rhsNode, scope, lhs);
  const rhs = c.node(rhsNode, scope);
  const position = node.position;
  return (input, frame) => {
    const l = lhs(input, frame);
    const func = rhs(input, frame);
    if (!isFunction(func)) throw new ExprError('T2006', { position, value: func });
    if (isFunction(l)) return compose(l, func);
    return applyFunction(func, [l], null);
  };
}

/** The call `$f($x)` in jsonata's chain text. */
const CHAIN_SITE = { position: 39, name: 'f' };

/**
 * jsonata's chain, `function($f, $g) { function($x){ $g($f($x)) } }`: the call of $g is in tail position.
 * Errors carry the names and positions of that text, as jsonata's do.
 */
function compose(f: unknown, g: unknown): unknown {
  const call = (args: readonly unknown[]): unknown => {
    // `$x` is read as a variable: jsonata's evaluate() unwraps a one-item sequence.
    const x = normalize(args[0], false);
    const inner = (): unknown[] => {
      markCallSite(f, CHAIN_SITE.name, CHAIN_SITE.position);
      try {
        return [normalize(applyFunction(f, [isFunction(x) ? wrapFunctionArgument(x) : x], null), false)];
      } catch (err) {
        if (isDecorable(err)) {
          if (!err.position) err.position = CHAIN_SITE.position;
          if (!err.token) err.token = CHAIN_SITE.name;
        }
        throw err;
      }
    };
    return new TailCall(() => g, inner, { type: 'variable', value: 'g', position: 35 });
  };
  return makeLambda(call, 1, undefined, currentLimits());
}

/** `function($a, $b) { body }`: a closure over the frame it is made in. */
export function compileLambda(c: Compiler, node: Node, _scope: StaticScope): Ev {
  const inner = c.scopeOf(node);
  const body = c.generated(node.body as Node, inner);
  const params = (node.arguments ?? []).map((a) => inner.slotOf(String(a.value)));
  const slots = inner.names.length;
  const arity = params.length;
  const definition = node.signature?.definition;
  const signature = definition !== undefined ? parseSignature(definition) : undefined;
  const materialized = inner.materialized;
  return (input, frame) => {
    const call = (args: readonly unknown[]): unknown => {
      // No parameters and no bindings: no frame of its own (the scope analysis counted none).
      if (!materialized) return body(input, frame);
      const own = { v: new Array<unknown>(slots).fill(UNSET), p: frame };
      for (let i = 0; i < params.length; i++) own.v[params[i] as number] = args[i];
      return body(input, own);
    };
    return makeLambda(call, arity, signature, currentLimits());
  };
}

/** A call in tail position of a lambda body (jsonata's thunk): evaluated here, applied by the caller's trampoline. */
export function compileTailCall(c: Compiler, node: Node, scope: StaticScope): Ev {
  const call = node.body as Node;
  const procNode = call.procedure as Node;
  const proc = c.node(procNode, scope);
  const args = (call.arguments ?? []).map((a) => c.node(a, scope));
  return (input, frame) =>
    new TailCall(
      () => proc(input, frame),
      () => args.map((a) => unwrappedInTailCall(a(input, frame))),
      procNode,
    );
}
