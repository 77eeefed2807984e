import { describe, expect, it } from 'vitest';
import { evaluateExpression } from '../../src/expr/index.js';
import { runCli } from '../cli/cli-process.js';

// Every expression is bounded, regexes included (src/expr/linear-regex.ts): a catastrophic pattern on a
// hostile input answers as it should instead of backtracking for hours inside one synchronous call. Without
// the V8 flag each of these runs for longer than the test's timeout.

const HOSTILE = `${'a'.repeat(40)}!`;
const CATASTROPHIC = `$contains("${HOSTILE}", /^(a+)+$/)`;

describe('regexes in expressions', () => {
  it('a nested quantifier on a hostile input answers false at once (library)', async () => {
    const started = Date.now();
    await expect(evaluateExpression(CATASTROPHIC)).resolves.toBe(false);
    expect(await evaluateExpression(`$match("${'a'.repeat(30)}b", /(a|aa)+$/)`)).toBeUndefined();
    // A match that does succeed keeps its answer.
    expect(await evaluateExpression(`$contains("${'a'.repeat(40)}", /^(a+)+$/)`)).toBe(true);
    expect(Date.now() - started).toBeLessThan(10_000);
  }, 15_000);

  it('recipe eval answers instead of hanging', async () => {
    const r = await runCli(['eval', CATASTROPHIC], { timeoutMs: 20_000 });
    expect(r.code).toBe(0);
    expect(r.stdout.trim()).toBe('false');
  }, 30_000);
});
