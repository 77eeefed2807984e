/**
 * Differential property test: generated expressions of every form the compiler accepts, on generated data,
 * through jsonata and through the compiled form. Same value (exactly: undefined vs null, numbers, key
 * order) or the same error (code, message and position). fast-check prints the seed and the smallest
 * failing expression when they differ.
 */
import fc from 'fast-check';
import jsonata from 'jsonata';
import { describe, expect, it } from 'vitest';
import { bindings, expression, jsonValue } from './arbitraries.js';
import { sameOutcome, viaCompiled, viaJsonata } from './engines.js';

function parses(source: string): boolean {
  try {
    jsonata(source);
    return true;
  } catch {
    return false;
  }
}

describe('compiled expressions against jsonata', () => {
  it('give the same value or the same error on generated expressions and data', async () => {
    await fc.assert(
      fc.asyncProperty(expression.filter(parses), jsonValue, bindings, async (source, input, bound) => {
        const want = await viaJsonata(source, input, bound);
        const got = await viaCompiled(source, input, bound);
        expect(got.compiled, `${source} is compiled`).toBe(true);
        expect(
          sameOutcome(want, got.outcome, source),
          `${source}\n${JSON.stringify(want)}\n${JSON.stringify(got.outcome)}`,
        ).toBe(true);
      }),
      { numRuns: 1500 },
    );
  }, 120_000);
});
