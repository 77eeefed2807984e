import { isDeepStrictEqual } from 'node:util';
import { evalValue } from '../expr/index.js';
import { writtenValue, type Expected } from './expected.js';
import type { SourceLoc } from '../errors/index.js';

/** One way an actual value differs from what was expected, at the place the expectation was written. */
export interface Mismatch {
  /** Where in the value, e.g. outputs.created or writes[0].params.properties.hs_task_subject. */
  readonly path: string;
  readonly at: SourceLoc;
  readonly expected: unknown;
  readonly actual: unknown;
  /** Said instead of expected/actual when they do not tell it (a predicate, a list length). */
  readonly reason?: string;
}

/** Variables a predicate sees besides $actual. */
export type Bindings = Readonly<Record<string, unknown>>;

/**
 * Matches `actual` against `expected` partially (maps: the keys given; lists: same length, item by item;
 * an expected null also matches a missing value) and lists every mismatch.
 */
export async function matchExpected(
  expected: Expected,
  actual: unknown,
  path: string,
  bindings: Bindings,
): Promise<Mismatch[]> {
  switch (expected.kind) {
    case 'literal': {
      const want = expected.value;
      if (want === null ? actual === null || actual === undefined : isDeepStrictEqual(want, actual)) return [];
      return [{ path, at: expected.at, expected: want, actual }];
    }
    case 'predicate': {
      let result: unknown;
      try {
        result = await evalValue(expected.value, { ...bindings, actual });
      } catch (err) {
        const reason = `the expression failed: ${(err as Error).message}`;
        return [{ path, at: expected.at, expected: expected.source, actual, reason }];
      }
      if (typeof result === 'boolean') {
        if (result) return [];
        return [{ path, at: expected.at, expected: expected.source, actual, reason: `${expected.source} is false` }];
      }
      if (isDeepStrictEqual(result, actual)) return [];
      return [{ path, at: expected.at, expected: result, actual }];
    }
    case 'object': {
      if (actual === null || typeof actual !== 'object' || Array.isArray(actual))
        return [{ path, at: expected.at, expected: writtenValue(expected), actual }];
      const out: Mismatch[] = [];
      for (const [key, member] of Object.entries(expected.entries)) {
        const value = (actual as Record<string, unknown>)[key];
        out.push(...(await matchExpected(member, value, join(path, key), bindings)));
      }
      return out;
    }
    case 'array': {
      if (!Array.isArray(actual)) return [{ path, at: expected.at, expected: writtenValue(expected), actual }];
      if (actual.length !== expected.items.length)
        return [
          {
            path,
            at: expected.at,
            expected: writtenValue(expected),
            actual,
            reason: `expected ${count(expected.items.length, 'item')}, got ${actual.length}`,
          },
        ];
      const out: Mismatch[] = [];
      for (const [i, item] of expected.items.entries())
        out.push(...(await matchExpected(item, actual[i], `${path}[${i}]`, bindings)));
      return out;
    }
  }
}

function join(path: string, key: string): string {
  const safe = /^[A-Za-z_$][\w$]*$/.test(key) ? key : JSON.stringify(key);
  return path === '' ? safe : /^[A-Za-z_$]/.test(safe) ? `${path}.${safe}` : `${path}[${safe}]`;
}

/** "1 item", "3 items". */
export function count(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? '' : 's'}`;
}
