/**
 * Differential property test: generated expressions of every form the compiler accepts, on generated data,
 * through jsonata and through the compiled form. Same value (exactly: undefined vs null, numbers, key
 * order) or the same error (code, message and position). fast-check prints the seed and the smallest
 * failing expression when they differ.
 *
 * The seed is fixed so CI is deterministic; EXPR_PROPERTY_SEED=random (or a number) explores others.
 * One fallback is allowed, the subset's documented one: a `[]` or filter on a block or condition whose
 * tail is a tail call inside a lambda (jsonata applies it to the trampoline's thunk, not the value).
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

const ALLOWED_FALLBACK = 'a filter on a tail call';
const seedSetting = process.env.EXPR_PROPERTY_SEED;
const seed = seedSetting === 'random' ? undefined : Number(seedSetting ?? 20261125);

describe('compiled expressions against jsonata', () => {
  it('give the same value or the same error on generated expressions and data', async () => {
    await fc.assert(
      fc.asyncProperty(expression.filter(parses), jsonValue, bindings, async (source, input, bound) => {
        const want = await viaJsonata(source, input, bound);
        const got = await viaCompiled(source, input, bound);
        if (!got.compiled) expect(got.fallbackReason, `${source} is compiled`).toBe(ALLOWED_FALLBACK);
        expect(
          sameOutcome(want, got.outcome, source),
          `${source}\n${JSON.stringify(want)}\n${JSON.stringify(got.outcome)}`,
        ).toBe(true);
      }),
      seed === undefined ? { numRuns: 1500 } : { numRuns: 1500, seed },
    );
  }, 120_000);
});
