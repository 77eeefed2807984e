import { RecipeError, type Location } from '../errors/index.js';
import { isStackExhausted, type JsonataExpr } from './compiled-expr.js';
import { MAX_DEPTH } from './jsonata-engine.js';
import type { SourceLoc } from './types.js';

/**
 * An evaluation error as a catalog error at its place: an expression stopped by the recipe's bound is
 * X018, by the step's timeout_ms X005; recursion past what the engine allows is X019; anything else X008
 * with jsonata's code and message. The location is the error's position inside the expression when it
 * has one (jsonata gives the offset just after the offending token), else the expression's start.
 */
export function toRecipeError(
  err: unknown,
  expr: JsonataExpr | undefined,
  fallback: SourceLoc | undefined,
): RecipeError {
  if (err instanceof RecipeError) return err;
  // $eval wraps what stopped the evaluation inside it (D3121): a bound that was hit is the bound.
  const wrapped = (err as { code?: unknown; error?: unknown } | undefined)?.error;
  const inner = (wrapped as { code?: unknown } | undefined)?.code;
  if ((err as { code?: unknown }).code === 'D3121' && (inner === 'D1012' || inner === 'D1011'))
    return toRecipeError(wrapped, expr, fallback);
  const e = (err ?? {}) as {
    code?: unknown;
    message?: unknown;
    position?: unknown;
    token?: unknown;
    limit?: unknown;
    value?: unknown;
  };
  const at = locate(e, expr) ?? fallback;
  const location: Location | undefined = at && { file: at.file, line: at.line, column: at.column, pointer: at.pointer };
  if (e.code === 'D1012' && e.limit === 'step')
    return new RecipeError('X005', { timeoutMs: e.value }, location, { cause: err });
  if (e.code === 'D1012') return new RecipeError('X018', { timeoutMs: e.value }, location, { cause: err });
  if (e.code === 'D1011' || isStackExhausted(err))
    return new RecipeError(
      'X019',
      { reason: `more than ${MAX_DEPTH} nested evaluations (a recursion that does not end?)` },
      location,
      { cause: err },
    );
  let message = typeof e.message === 'string' ? e.message : String(err);
  if (err instanceof RangeError && /Invalid (string|array) length/.test(message))
    message = `the expression built a value longer than JavaScript allows (${message}): a string or array doubled in a loop?`;
  // A signature mismatch (T0410-T0412) names the argument but not what it was: add its type and value.
  if (typeof e.code === 'string' && /^T041[0-2]$/.test(e.code) && 'value' in e)
    message += `: got ${describeValue(e.value)}`;
  const reason = `${typeof e.code === 'string' ? `${e.code} ` : ''}${message}`;
  return new RecipeError('X008', { reason }, location, { cause: err });
}

/**
 * The offset in the expression source an error points at, or undefined. jsonata gives the offset just
 * after a token: an operator's (the token), or a call's `(` (the token is then the function's name,
 * which this points at, `$` included).
 */
export function errorOffset(err: { position?: unknown; token?: unknown }, source: string): number | undefined {
  if (typeof err.position !== 'number') return undefined;
  const position = Math.min(Math.max(0, err.position), source.length);
  const token = typeof err.token === 'string' ? err.token : '';
  let start = position - 1;
  if (
    token !== '' &&
    source.charAt(position - 1) === '(' &&
    source.slice(position - 1 - token.length, position - 1) === token
  ) {
    start = position - 1 - token.length;
    if (source.charAt(start - 1) === '$') start--;
  } else if (token !== '' && source.slice(position - token.length, position) === token) {
    start = position - token.length;
  }
  return Math.max(0, start);
}

function locate(e: { position?: unknown; token?: unknown }, expr: JsonataExpr | undefined): SourceLoc | undefined {
  if (expr === undefined) return undefined;
  const offset = errorOffset(e, expr.source);
  return offset === undefined ? undefined : expr.locateOffset(offset);
}

const VALUE_CHARS = 60;

/**
 * `a number 1`, `a string "abc"`, `an object {"a":1}`: the value's JSON type and its text when that is at
 * most 60 characters, else its size. Never a cut text: the run's redactor masks a secret in an error
 * message only when the whole secret is there.
 */
export function describeValue(value: unknown): string {
  if (value === undefined) return 'nothing (undefined)';
  if (typeof value === 'function') return 'a function';
  const type =
    value === null
      ? 'null'
      : Array.isArray(value)
        ? 'an array'
        : typeof value === 'object'
          ? 'an object'
          : `a ${typeof value}`;
  let text: string;
  try {
    text = JSON.stringify(value) ?? String(value);
  } catch {
    text = String(value);
  }
  if (text.length <= VALUE_CHARS) return value === null ? 'null' : `${type} ${text}`;
  if (typeof value === 'string') return `a string of ${value.length} characters`;
  if (Array.isArray(value)) return `an array of ${value.length} items`;
  return `${type} with keys ${Object.keys(value as object)
    .slice(0, 5)
    .join(', ')}${Object.keys(value as object).length > 5 ? ', ...' : ''}`;
}
