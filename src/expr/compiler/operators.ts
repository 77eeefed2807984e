/**
 * Operators, constructors, conditions, blocks and bindings, after jsonata's evaluateBinary, evaluateUnary,
 * evaluateCondition, evaluateBlock and evaluateBindExpression (jsonata 2.x): same coercions, same errors
 * (with the operator's position and token, as jsonata decorates them).
 */
import { ExprError, isDecorable } from '../runtime/errors.js';
import { tick } from '../runtime/guard.js';
import { CONS, markSequence, nested, type Marked } from '../runtime/sequence.js';
import { boolize, isDeepEqual, isNumeric, toBoolean, toJsonataString } from '../runtime/values.js';
import { lhsOf, type Node } from './ast.js';
import { UNSET, type StaticScope } from './scopes.js';
import type { Compiler, Ev } from './types.js';

export function compileBinary(c: Compiler, node: Node, scope: StaticScope): Ev {
  const op = String(node.value);
  const lhs = c.node(lhsOf(node), scope);
  const rhs = c.node(node.rhs as Node, scope);
  const decorate = (err: unknown): unknown => {
    if (isDecorable(err)) {
      err.position = node.position;
      err.token = op;
    }
    return err;
  };
  if (op === 'and' || op === 'or') {
    const isAnd = op === 'and';
    return (input, frame) => {
      const l = lhs(input, frame);
      // jsonata evaluates the right side inside its try: its errors take this operator's position too.
      try {
        const lb = boolize(l);
        if (isAnd) return lb && boolize(rhs(input, frame));
        return lb || boolize(rhs(input, frame));
      } catch (err) {
        throw decorate(err);
      }
    };
  }
  const apply = operatorFunction(op);
  return (input, frame) => {
    const l = lhs(input, frame);
    const r = rhs(input, frame);
    try {
      return apply(l, r);
    } catch (err) {
      throw decorate(err);
    }
  };
}

/** The value of `l op r` (not `and`/`or`), or jsonata's error (undecorated). */
export function operatorFunction(op: string): (l: unknown, r: unknown) => unknown {
  switch (op) {
    case '+':
      return (l, r) => (bothFinite(l, r) ? (l as number) + (r as number) : numeric(l, r, op));
    case '-':
      return (l, r) => (bothFinite(l, r) ? (l as number) - (r as number) : numeric(l, r, op));
    case '*':
      return (l, r) => (bothFinite(l, r) ? (l as number) * (r as number) : numeric(l, r, op));
    case '/':
      return (l, r) => (bothFinite(l, r) ? (l as number) / (r as number) : numeric(l, r, op));
    case '%':
      return (l, r) => (bothFinite(l, r) ? (l as number) % (r as number) : numeric(l, r, op));
    case '=':
      return (l, r) => (l === undefined || r === undefined ? false : isDeepEqual(l, r));
    case '!=':
      return (l, r) => (l === undefined || r === undefined ? false : !isDeepEqual(l, r));
    case '<':
      return (l, r) => (comparable(l, r) ? (l as number) < (r as number) : undefined);
    case '<=':
      return (l, r) => (comparable(l, r) ? (l as number) <= (r as number) : undefined);
    case '>':
      return (l, r) => (comparable(l, r) ? (l as number) > (r as number) : undefined);
    case '>=':
      return (l, r) => (comparable(l, r) ? (l as number) >= (r as number) : undefined);
    case '&':
      return concat;
    case '..':
      return range;
    case 'in':
      return (l, r) => {
        if (l === undefined || r === undefined) return false;
        const list = Array.isArray(r) ? r : [r];
        for (const item of list) if (item === l) return true;
        return false;
      };
    default:
      throw new Error(`unknown operator ${op}`);
  }
}

function bothFinite(l: unknown, r: unknown): boolean {
  return typeof l === 'number' && typeof r === 'number' && Number.isFinite(l) && Number.isFinite(r);
}

/** jsonata's evaluateNumericExpression, for everything but two finite numbers. */
function numeric(l: unknown, r: unknown, op: string): number | undefined {
  if (l !== undefined && !isNumeric(l)) throw new ExprError('T2001', { value: l });
  if (r !== undefined && !isNumeric(r)) throw new ExprError('T2002', { value: r });
  if (l === undefined || r === undefined) return undefined;
  switch (op) {
    case '+':
      return l + r;
    case '-':
      return l - r;
    case '*':
      return l * r;
    case '/':
      return l / r;
    default:
      return l % r;
  }
}

/**
 * jsonata's evaluateComparisonExpression checks: both sides strings or numbers (T2010), of the same type
 * (T2009). False when a side is undefined (the comparison then gives undefined).
 */
function comparable(l: unknown, r: unknown): boolean {
  const lt = typeof l;
  const rt = typeof r;
  if (lt === rt && (lt === 'number' || lt === 'string')) return true;
  const lc = lt === 'undefined' || lt === 'string' || lt === 'number';
  const rc = rt === 'undefined' || rt === 'string' || rt === 'number';
  if (!lc || !rc) throw new ExprError('T2010', { value: !(lt === 'string' || lt === 'number') ? l : r });
  if (lt === 'undefined' || rt === 'undefined') return false;
  throw new ExprError('T2009', { value: l, value2: r });
}

function concat(l: unknown, r: unknown): string {
  const ls = l === undefined ? '' : (toJsonataString(l) as string);
  const rs = r === undefined ? '' : (toJsonataString(r) as string);
  return ls + rs;
}

/** `[a..b]`: the integers from a to b, at most 1e7 of them (jsonata's evaluateRangeExpression). */
function range(l: unknown, r: unknown): unknown {
  if (l !== undefined && !Number.isInteger(l)) throw new ExprError('T2003', { value: l });
  if (r !== undefined && !Number.isInteger(r)) throw new ExprError('T2004', { value: r });
  if (l === undefined || r === undefined) return undefined;
  const from = l as number;
  const to = r as number;
  if (from > to) return undefined;
  const size = to - from + 1;
  if (size > 1e7) throw new ExprError('D2014', { value: size });
  const result = new Array<number>(size);
  // By index, not `item <= to`: past 2^53, item + 1 === item and jsonata's loop never ends.
  for (let index = 0; index < size; index++) {
    if ((index & 0xffff) === 0) tick();
    result[index] = from + index;
  }
  return markSequence(result);
}

export function compileNegation(c: Compiler, node: Node, scope: StaticScope): Ev {
  const operand = c.node(node.expression as Node, scope);
  const position = node.position;
  return (input, frame) => negate(operand(input, frame), position);
}

/** Unary minus (jsonata's D1002 for anything but a number). */
export function negate(value: unknown, position: number | undefined): unknown {
  if (value === undefined) return undefined;
  if (isNumeric(value)) return -value;
  throw new ExprError('D1002', { position, token: '-', value });
}

/** `[a, b, ...]`: items that are arrays are spliced in, except nested constructors; undefined items dropped. */
export function compileArray(c: Compiler, node: Node, scope: StaticScope): Ev {
  const items = (node.expressions ?? []).map((item) => ({ nested: item.value === '[', ev: c.node(item, scope) }));
  const cons = node.consarray === true;
  return (input, frame) => {
    const result: unknown[] = [];
    for (const item of items) {
      const value = item.ev(input, frame);
      if (value === undefined) continue;
      if (item.nested) result.push(nested(value));
      else if (!Array.isArray(value)) result.push(value);
      else for (let i = 0; i < value.length; i++) result.push(value[i]);
    }
    if (cons) Object.defineProperty(result as Marked, CONS, { value: true });
    return result;
  };
}

export function compileCondition(c: Compiler, node: Node, scope: StaticScope): Ev {
  const condition = c.node(node.condition as Node, scope);
  const then = c.node(node.then as Node, scope);
  const otherwise = node.else ? c.node(node.else, scope) : undefined;
  return (input, frame) => {
    if (toBoolean(condition(input, frame))) return then(input, frame);
    return otherwise ? otherwise(input, frame) : undefined;
  };
}

/** `( a; b; c )`: a new frame when the block binds variables; the value of the last expression. */
export function compileBlock(c: Compiler, node: Node, _scope: StaticScope): Ev {
  const inner = c.scopeOf(node);
  const exprs = (node.expressions ?? []).map((e) => c.node(e, inner));
  const slots = inner.names.length;
  if (!inner.materialized) {
    return (input, frame) => {
      let result: unknown;
      for (const e of exprs) result = e(input, frame);
      return result;
    };
  }
  return (input, frame) => {
    const own = { v: new Array<unknown>(slots).fill(UNSET), p: frame };
    let result: unknown;
    for (const e of exprs) result = e(input, own);
    return result;
  };
}

/** `$name := value`: binds in the frame it runs in (always the innermost one: see scopes.ts). */
export function compileBind(c: Compiler, node: Node, scope: StaticScope): Ev {
  const name = String(lhsOf(node).value);
  const slot = scope.slotOf(name);
  const value = c.node(node.rhs as Node, scope);
  return (input, frame) => {
    const v = value(input, frame);
    frame.v[slot] = v;
    return v;
  };
}
