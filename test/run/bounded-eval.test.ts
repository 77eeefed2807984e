/**
 * Runaway expressions stop the step with a catalog error at the expression's line instead of hanging or
 * crashing the run: the recipe's expression_timeout_ms (X018), the step's timeout_ms (X005), recursion
 * past what the engine allows (X019), and the limits jsonata has (D2014, a string too long), on the
 * compiled path and on jsonata's.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { runYaml, tempDir, testClient } from './helpers.js';

// No step here sends a request: the client is never used.
const client = testClient('http://127.0.0.1:9', { clientId: 'id', clientSecret: 'secret' });
afterAll(() => client.close());

async function fails(steps: string, head = ''): Promise<{ code?: string; line?: number; message?: string }> {
  const { report } = await runYaml(tempDir(), `version: 1\nname: runaway\n${head}steps:\n${steps}`, client);
  expect(report.status).toBe('failed');
  return report.error ?? {};
}

describe('bounded evaluation', () => {
  it('an endless tail recursion stops at the recipe-level expression_timeout_ms (X018)', async () => {
    const error = await fails(
      '  - transform: "${ ($f := function($n) { $f($n + 1) }; $f(0)) }"\n',
      'expression_timeout_ms: 200\n',
    );
    expect(error).toMatchObject({ code: 'X018', line: 5 });
  });

  it("a step's timeout_ms stops its expression (X005)", async () => {
    const error = await fails(
      '  - log: ok\n  - transform: "${ ($f := function($n) { $f($n + 1) }; $f(0)) }"\n    timeout_ms: 150\n',
    );
    expect(error).toMatchObject({ code: 'X005', line: 5 });
  });

  it('a long loop in compiled code is interrupted', async () => {
    const error = await fails(
      '  - transform: "${ $count([1..5000].([1..5000].($ * 2))) }"\n',
      'expression_timeout_ms: 50\n',
    );
    expect(error.code).toBe('X018');
  });

  it('an endless recursion that grows the stack is a clear error, not a crash (X019)', async () => {
    const error = await fails('  - transform: "${ ($f := function($n) { 1 + $f($n + 1) }; $f(0)) }"\n');
    expect(error).toMatchObject({ code: 'X019', line: 4 });
  });

  it('a huge range is refused by the range operator (X008 D2014)', async () => {
    const error = await fails('  - transform: "${ [1..100000000] }"\n');
    expect(error.code).toBe('X008');
    expect(error.message).toContain('D2014');
  });

  it('a string doubled in a loop stops with a clear error (X008)', async () => {
    const error = await fails('  - transform: "${ $reduce([1..64], function($acc, $v) { $acc & $acc }, \'xy\') }"\n');
    expect(error.code).toBe('X008');
    expect(error.message).toContain('longer than JavaScript allows');
  });

  it('jsonata evaluating (outside the compiled subset) is bounded the same way', async () => {
    const error = await fails(
      '  - transform: "${ $eval(\'($f := function($n) { $f($n + 1) }; $f(0))\') }"\n',
      'expression_timeout_ms: 200\n',
    );
    expect(error.code).toBe('X018');
  });

  it('an expression within its bound runs to the end', async () => {
    const { report } = await runYaml(
      tempDir(),
      `version: 1
name: fine
expression_timeout_ms: 10000
steps:
  - id: total
    transform: "\${ ($f := function($n, $acc) { $n = 0 ? $acc : $f($n - 1, $acc + $n) }; $f(100000, 0)) }"
outputs:
  total: "\${ $total }"
`,
      client,
    );
    expect(report.status).toBe('ok');
    expect(report.outputs).toEqual({ total: 5000050000 });
  });
});
