import type { Diagnostic, SourceLoc } from '../errors/index.js';
import { lineAndColumn, parseExpr } from '../expr/index.js';
import { makeDiagnostic } from '../source/index.js';
import { actionsExpression, habitHints } from './habit-hints.js';
import { jsonataHints } from './hints.js';

/**
 * The hints `recipe validate` gives inside `${ }` (W003, W004, W008–W011), for one expression on its own:
 * what `recipe eval` prints before evaluating. `bound` are the variables the caller binds (eval's --bind);
 * `hasInput` says the context value `$` is given (eval's --input). Locations count from the expression's
 * first character, in a file named `name`.
 */
export function expressionHints(
  source: string,
  options: { bound?: readonly string[]; hasInput?: boolean; name?: string } = {},
): Diagnostic[] {
  const name = options.name ?? 'expression';
  const at = (pointer: string, offset = 0): SourceLoc => ({ file: name, ...lineAndColumn(source, offset), pointer });
  const out: Diagnostic[] = [];
  const actions = actionsExpression(source);
  if (actions) out.push(makeDiagnostic('W008', actions, at('')));
  jsonataHints(source, 0, '', at, out);
  const parsed = parseExpr(source, at(''), (offset) => at('', offset));
  if ('expr' in parsed) {
    const names = new Set(['inputs', 'secrets', 'run', ...(options.bound ?? [])]);
    out.push(...habitHints(parsed.expr, { names, stepIds: new Set(), hasInput: options.hasInput ?? false }));
  }
  return out.sort((a, b) => a.line - b.line || a.column - b.column);
}
