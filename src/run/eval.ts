import type { CompiledExpr, SourceLoc, Value } from '../compile/plan.js';
import { RecipeError } from '../errors/index.js';
import { evalValue } from '../expr/index.js';
import { locationOf } from './errors.js';
import type { Scope } from './scope.js';

/**
 * Evaluates a plan Value in a scope (plus step-local names such as $result). A JSONata runtime error
 * becomes X008 at the expression's position in the file.
 */
export async function evaluate(value: Value, scope: Scope, extra?: Readonly<Record<string, unknown>>): Promise<unknown> {
  if (value.kind === 'literal') return value.value;
  try {
    return normalise(await evalValue(value, scope.bindings(extra)));
  } catch (err) {
    if (err instanceof RecipeError) throw err;
    const e = err as { message?: string; code?: string };
    const reason = `${e.code ? `${e.code} ` : ''}${e.message ?? String(err)}`;
    const loc = firstExprLoc(value);
    throw new RecipeError('X008', { reason }, loc ? locationOf(loc) : undefined, { cause: err });
  }
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
