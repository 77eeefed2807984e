/**
 * The expression corpus: corpus.json holds expressions, their input and bindings, and what jsonata answered
 * for them (the hand-written cases of hand-written.ts and a fixed sample of generated ones). Both engines
 * must give exactly that: the compiled form, and jsonata as this engine runs it (extensions and guard).
 *
 * Regenerate the expected answers (after a jsonata upgrade, or new cases) with
 *   UPDATE_CORPUS=1 npx vitest run test/expr/corpus
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import fc from 'fast-check';
import jsonata from 'jsonata';
import { describe, expect, it } from 'vitest';
import { plain } from '../../../src/expr/compiled-expr.js';
import { evaluateWithJsonata, parseJsonata } from '../../../src/expr/jsonata-engine.js';
import { bindings, expression, jsonValue } from '../differential/arbitraries.js';
import { canonical, sameOutcome, viaCompiled, viaJsonata, type Outcome } from '../differential/engines.js';
import { BINDINGS, HAND_WRITTEN, INPUT } from './hand-written.js';

interface CorpusCase {
  readonly expr: string;
  /** 'standard' for BINDINGS, else the bindings themselves. */
  readonly bindings: 'standard' | Record<string, unknown>;
  readonly input?: unknown;
  readonly expected: Outcome;
}

const FILE = new URL('./corpus.json', import.meta.url);
const GENERATED = 320;

function parses(source: string): boolean {
  try {
    jsonata(source);
    return true;
  } catch {
    return false;
  }
}

async function buildCorpus(): Promise<CorpusCase[]> {
  const cases: CorpusCase[] = [];
  for (const c of HAND_WRITTEN) {
    if (!parses(c.expr)) throw new Error(`hand-written case does not parse: ${c.expr}`);
    const input = c.withInput ? INPUT : undefined;
    const expected = await viaJsonata(c.expr, input, BINDINGS);
    cases.push({ expr: c.expr, bindings: 'standard', ...(c.withInput ? { input } : {}), expected });
  }
  const sample = fc.sample(fc.tuple(expression.filter(parses), jsonValue, bindings), { numRuns: GENERATED, seed: 13 });
  for (const [expr, input, bound] of sample) {
    const expected = await viaJsonata(expr, input, bound);
    cases.push({ expr, bindings: bound, input, expected });
  }
  return cases;
}

function boundFor(c: CorpusCase): Record<string, unknown> {
  return c.bindings === 'standard' ? BINDINGS : c.bindings;
}

async function viaEngineJsonata(c: CorpusCase): Promise<Outcome> {
  try {
    return {
      ok: true,
      value: canonical(plain(await evaluateWithJsonata(parseJsonata(c.expr), c.input, boundFor(c), undefined))),
    };
  } catch (err) {
    const e = err as { code?: unknown; message?: unknown; position?: unknown };
    const code = typeof e.code === 'string' ? e.code : 'none';
    const message = typeof e.message === 'string' ? e.message : String(err);
    return typeof e.position === 'number'
      ? { ok: false, code, message, position: e.position }
      : { ok: false, code, message };
  }
}

describe('expression corpus', () => {
  if (process.env.UPDATE_CORPUS) {
    it('is regenerated from jsonata', async () => {
      const cases = await buildCorpus();
      writeFileSync(FILE, `[\n${cases.map((c) => JSON.stringify(c)).join(',\n')}\n]\n`);
      expect(cases.length).toBeGreaterThanOrEqual(500);
    }, 120_000);
    return;
  }

  const cases = existsSync(FILE) ? (JSON.parse(readFileSync(FILE, 'utf8')) as CorpusCase[]) : [];

  it('holds at least 500 cases', () => {
    expect(cases.length).toBeGreaterThanOrEqual(500);
  });

  it('every case compiles and the compiled form gives what jsonata gave', async () => {
    const wrong: string[] = [];
    for (const c of cases) {
      const got = await viaCompiled(c.expr, c.input, boundFor(c));
      if (!got.compiled) wrong.push(`not compiled: ${c.expr}`);
      else if (!sameOutcome(c.expected, got.outcome, c.expr))
        wrong.push(`${c.expr}\n  expected ${JSON.stringify(c.expected)}\n  got      ${JSON.stringify(got.outcome)}`);
    }
    expect(wrong).toEqual([]);
  }, 60_000);

  it('jsonata as this engine runs it (extensions, guard) gives the same', async () => {
    const wrong: string[] = [];
    for (const c of cases) {
      const got = await viaEngineJsonata(c);
      if (!sameOutcome(c.expected, got, c.expr))
        wrong.push(`${c.expr}\n  expected ${JSON.stringify(c.expected)}\n  got      ${JSON.stringify(got)}`);
    }
    expect(wrong).toEqual([]);
  }, 60_000);
});
