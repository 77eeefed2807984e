import jsonata from 'jsonata';

/** One unmet expectation: where in the expected value, and what differed. */
export interface Mismatch {
  readonly at: string;
  readonly expected: unknown;
  readonly actual: unknown;
  readonly note?: string;
}

const PREDICATE = /^\s*\$\{([\s\S]*)\}\s*$/;

/**
 * Matches `actual` against `expected` with the rules of `recipe test` (docs/testing.md, Matching): maps match
 * the keys they list, lists must have the same length and match item by item, scalars must be equal, an
 * expected null also matches a missing value, and a string that is one `${ }` is a JSONata predicate over
 * `$actual` and the names of `env` (a boolean is the verdict, anything else the expected value). `$${` is a
 * literal `${`.
 */
export async function match(
  expected: unknown,
  actual: unknown,
  at = '',
  env: Record<string, unknown> = {},
): Promise<Mismatch[]> {
  if (typeof expected === 'string') {
    const pred = PREDICATE.exec(expected);
    if (pred && !expected.trimStart().startsWith('$${')) {
      const value: unknown = await jsonata(pred[1]!).evaluate(undefined, { ...env, actual });
      if (typeof value === 'boolean') return value ? [] : [{ at, expected, actual, note: 'the predicate is false' }];
      return match(value, actual, at, env);
    }
    const literal = expected.replaceAll('$${', '${');
    return literal === actual ? [] : [{ at, expected: literal, actual }];
  }
  if (expected === null) return actual === null || actual === undefined ? [] : [{ at, expected, actual }];
  if (Array.isArray(expected)) {
    if (!Array.isArray(actual)) return [{ at, expected, actual, note: 'not a list' }];
    if (actual.length !== expected.length)
      return [{ at, expected, actual, note: `${actual.length} items, expected ${expected.length}` }];
    const out: Mismatch[] = [];
    for (const [i, item] of expected.entries()) out.push(...(await match(item, actual[i], `${at}[${i}]`, env)));
    return out;
  }
  if (typeof expected === 'object') {
    if (typeof actual !== 'object' || actual === null || Array.isArray(actual))
      return [{ at, expected, actual, note: 'not a map' }];
    const out: Mismatch[] = [];
    for (const [k, v] of Object.entries(expected))
      out.push(...(await match(v, (actual as Record<string, unknown>)[k], at ? `${at}.${k}` : k, env)));
    return out;
  }
  return Object.is(expected, actual) ? [] : [{ at, expected, actual }];
}

/** The mismatches as readable text, one per line. */
export function describeMismatches(list: readonly Mismatch[]): string {
  return list
    .map(
      (m) =>
        `${m.at || '(root)'}${m.note ? ` (${m.note})` : ''}\n  - expected: ${JSON.stringify(m.expected)}\n  + actual:   ${JSON.stringify(m.actual)}`,
    )
    .join('\n');
}
