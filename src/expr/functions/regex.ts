/**
 * Regular expressions as JSONata has them: a `/re/` literal evaluates to a matcher function that answers
 * {match, start, end, groups, next} (ported from jsonata's evaluateRegex), and the string functions take
 * any function of that shape.
 */
import { ExprError } from '../runtime/errors.js';
import { callAs } from '../runtime/functions.js';
import { isFunction } from '../runtime/values.js';

export interface MatchResult {
  match: string;
  start: number;
  end: number;
  groups: (string | undefined)[];
  next: () => MatchResult | undefined;
}

export type Matcher = (str?: unknown, fromIndex?: number) => unknown;

/** The matcher a regex literal evaluates to; `position` is the literal's, for D1004. */
export function makeRegexMatcher(literal: RegExp, position: number | undefined): Matcher {
  // A fresh RegExp per evaluation, as jsonata makes: lastIndex is this matcher's own state.
  const re = new RegExp(literal);
  const closure = (str?: unknown, fromIndex?: number): MatchResult | undefined => {
    re.lastIndex = fromIndex || 0;
    const text = str as string;
    const match = re.exec(text);
    if (match === null) return undefined;
    const result: MatchResult = {
      match: match[0],
      start: match.index,
      end: match.index + match[0].length,
      groups: match.length > 1 ? match.slice(1) : [],
      next: () => {
        if (re.lastIndex >= text.length) return undefined;
        const next = closure(text, re.lastIndex);
        if (next && next.match === '') throw new ExprError('D1004', { position, value: literal.source });
        return next;
      },
    };
    return result;
  };
  return closure;
}

/** jsonata's evaluateMatcher: runs a matcher and checks the shape of its answer (T1010). */
export function evaluateMatcher(matcher: unknown, str?: string): MatchResult | undefined {
  const result = callAs('matcher.apply', matcher, str) as Partial<MatchResult> | undefined;
  if (
    result &&
    !(
      typeof result.start === 'number' ||
      (result.end as unknown) === 'number' ||
      Array.isArray(result.groups) ||
      isFunction(result.next)
    )
  )
    throw new ExprError('T1010');
  return result as MatchResult | undefined;
}
