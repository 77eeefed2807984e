import { RecipeError } from '../errors/index.js';
import { parseExpr } from './compiled-expr.js';
import { toRecipeError } from './expr-errors.js';
import type { SourceLoc } from './types.js';

/** How `evaluateExpression` runs. */
export interface EvaluateExpressionOptions {
  /** The longest the evaluation may run, in milliseconds (default 60000, a recipe's default). */
  readonly timeoutMs?: number;
  /** The name locations give the expression (default `expression`): `expression:1:7: X008 ...`. */
  readonly name?: string;
}

const DEFAULT_TIMEOUT_MS = 60_000;

/**
 * Evaluates one expression exactly as a recipe step does (the compiled path, the same built-ins, the same
 * bound), with `input` as the context value `$` and `bindings` as variables (names without `$`).
 * Rejects with a RecipeError located inside the expression: E001 for a syntax error, X008 (X018, X019)
 * for an evaluation error; line and column count from the expression's first character.
 */
export async function evaluateExpression(
  source: string,
  input?: unknown,
  bindings: Readonly<Record<string, unknown>> = {},
  options: EvaluateExpressionOptions = {},
): Promise<unknown> {
  const name = options.name ?? 'expression';
  const locate = (offset: number): SourceLoc => ({ file: name, ...lineAndColumn(source, offset), pointer: '' });
  const parsed = parseExpr(source, locate(0), locate);
  if ('error' in parsed) {
    const at = locate(parsed.error.offset);
    throw new RecipeError('E001', { reason: parsed.error.reason }, { file: at.file, line: at.line, column: at.column });
  }
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const now = Date.now;
  try {
    return await parsed.expr.evaluateWith(input, bindings, {
      deadline: now() + timeoutMs,
      now,
      timeoutMs,
      source: 'recipe',
    });
  } catch (err) {
    throw toRecipeError(err, parsed.expr, parsed.expr.loc);
  }
}

/** 1-based line and column of `offset` in `text`. */
export function lineAndColumn(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, Math.max(0, Math.min(offset, text.length)));
  const lines = before.split('\n');
  return { line: lines.length, column: (lines[lines.length - 1] as string).length + 1 };
}
