import { JsonataExpr } from './compiled-expr.js';
import { toRecipeError } from './expr-errors.js';
import { LATER, type CompiledExpr, type EvalLimits, type Value } from './types.js';

/**
 * Evaluates a plan Value with `bindings` as JSONata variables (keys without $), within `limits`.
 * Templates stringify their parts: strings as they are, null/undefined as '', anything else as JSON.
 * Object members whose value is undefined are left out (so an absent optional param is simply not sent).
 * An evaluation error rejects with a catalog error at its position in the file (see expr-errors.ts).
 */
export async function evalValue(
  value: Value,
  bindings: Readonly<Record<string, unknown>>,
  limits?: EvalLimits,
): Promise<unknown> {
  switch (value.kind) {
    case 'literal':
      return value.value;
    case 'expr':
      return evalExpr(value.expr, bindings, limits);
    case 'template': {
      const pieces = await Promise.all(
        value.parts.map(async (part) =>
          typeof part === 'string' ? part : stringifyPart(await evalExpr(part, bindings, limits)),
        ),
      );
      return pieces.join('');
    }
    case 'object': {
      const result: Record<string, unknown> = {};
      for (const [key, member] of Object.entries(value.entries)) {
        const evaluated = await evalValue(member, bindings, limits);
        if (evaluated !== undefined) result[key] = evaluated;
      }
      return result;
    }
    case 'array': {
      const result: unknown[] = [];
      for (const item of value.items) result.push(await evalValue(item, bindings, limits));
      return result;
    }
  }
}

async function evalExpr(
  expr: CompiledExpr,
  bindings: Readonly<Record<string, unknown>>,
  limits: EvalLimits | undefined,
): Promise<unknown> {
  try {
    return await expr.evaluate(bindings, limits);
  } catch (err) {
    throw toRecipeError(err, expr instanceof JsonataExpr ? expr : undefined, expr.loc);
  }
}

/**
 * A value's containers walked synchronously as evalValue walks them (object members whose value is undefined
 * left out), each leaf (literal, expression, template) answered by `leaf`; LATER as soon as one leaf is.
 */
export function mapLeavesNow(value: Value, leaf: (value: LeafValue) => unknown): unknown {
  switch (value.kind) {
    case 'object': {
      const result: Record<string, unknown> = {};
      for (const key of Object.keys(value.entries)) {
        const evaluated = mapLeavesNow(value.entries[key] as Value, leaf);
        if (evaluated === LATER) return LATER;
        if (evaluated !== undefined) result[key] = evaluated;
      }
      return result;
    }
    case 'array': {
      const result: unknown[] = [];
      for (const item of value.items) {
        const evaluated = mapLeavesNow(item, leaf);
        if (evaluated === LATER) return LATER;
        result.push(evaluated);
      }
      return result;
    }
    default:
      return leaf(value);
  }
}

/** A value that is not a container: a literal, an expression or a template. */
export type LeafValue = Exclude<Value, { readonly kind: 'object' | 'array' }>;

/**
 * One leaf of a value evaluated synchronously: its value, or LATER as soon as one expression can only be
 * evaluated asynchronously (CompiledExpr.evaluateNow); then evalValue evaluates the whole value again
 * (expressions are pure: `$now()` and `$random()` read their step visit's journaled clock and seed). Errors
 * are evalValue's. With mapLeavesNow, evalValue synchronously.
 */
export function leafNow(
  value: LeafValue,
  bindings: Readonly<Record<string, unknown>>,
  limits: EvalLimits | undefined,
): unknown {
  switch (value.kind) {
    case 'literal':
      return value.value;
    case 'expr':
      return evalExprNow(value.expr, bindings, limits);
    case 'template': {
      let text = '';
      for (const part of value.parts) {
        if (typeof part === 'string') {
          text += part;
          continue;
        }
        const v = evalExprNow(part, bindings, limits);
        if (v === LATER) return LATER;
        text += stringifyPart(v);
      }
      return text;
    }
  }
}

function evalExprNow(expr: CompiledExpr, bindings: Readonly<Record<string, unknown>>, limits?: EvalLimits): unknown {
  try {
    return expr.evaluateNow(bindings, limits);
  } catch (err) {
    throw toRecipeError(err, expr instanceof JsonataExpr ? expr : undefined, expr.loc);
  }
}

function stringifyPart(v: unknown): string {
  if (v === null || v === undefined) return '';
  if (typeof v === 'string') return v;
  return JSON.stringify(v) ?? '';
}
