/**
 * Steps whose expressions the compiler evaluates run without a promise (steps/interpret.ts); these recipes mix
 * them with expressions only jsonata evaluates, so a step starts synchronously and finishes awaited. Each
 * value is evaluated once, in order, and reports, bindings and on_error behave as for any step.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { runYaml, tempDir, testClient } from './helpers.js';

const client = testClient('http://127.0.0.1:9', { clientId: 'id', clientSecret: 'secret' });
afterAll(() => client.close());

// `%` (the parent operator) is outside the compiled subset: jsonata evaluates it, asynchronously.
const viaJsonata = (inner: string): string => `{'a': {'b': ${inner}}}.a.b.%.b`;

describe('steps that run synchronously until an expression must be awaited', () => {
  it('a set evaluates each value once, in order, when a later one is awaited', async () => {
    const { report } = await runYaml(
      tempDir(),
      `version: 1
name: sync-set
steps:
  - set: { n: 1 }
  - id: both
    set:
      n: "\${ $n + 1 }"
      p: "\${ ${viaJsonata('$n * 10')} }"
outputs:
  n: "\${ $n }"
  both: "\${ $both }"
`,
      client,
    );
    expect(report.status).toBe('ok');
    expect(report.outputs).toEqual({ n: 2, both: { n: 2, p: 20 } });
  });

  it('in a loop: a when, a transform and a collect evaluated by jsonata or compiled give the same items', async () => {
    const { report } = await runYaml(
      tempDir(),
      `version: 1
name: sync-loop
steps:
  - id: items
    foreach: "\${ [1..6] }"
    as: i
    concurrency: 2
    steps:
      - id: slow
        transform: "\${ ${viaJsonata('$i * 10')} }"
      - id: fast
        transform: "\${ $slow + $i }"
      - id: odd
        when: "\${ ${viaJsonata('$i % 2 = 1')} }"
        set: { odd: true }
    collect: "\${ { 'fast': $fast, 'odd': $odd ? $odd.odd : false } }"
outputs:
  items: "\${ $items }"
`,
      client,
    );
    expect(report.status).toBe('ok');
    expect(report.outputs?.items).toEqual([1, 2, 3, 4, 5, 6].map((i) => ({ fast: i * 11, odd: i % 2 === 1 })));
    const odd = report.steps.find((s) => s.id === 'odd');
    expect(odd).toMatchObject({ runs: 6, status: 'ok', skipped: false });
  });

  it('a synchronous failure goes through on_error like any other: continue binds the error, fail stops the run', async () => {
    const yaml = (onError: string): string => `version: 1
name: sync-fail
steps:
  - id: bad
    on_error: ${onError}
    transform: "\${ $error('nope') }"
  - id: after
    transform: "\${ $bad.error.code }"
outputs:
  after: "\${ $after }"
`;
    const continued = await runYaml(tempDir(), yaml('continue'), client);
    expect(continued.report.status).toBe('ok');
    expect(continued.report.outputs).toEqual({ after: 'X008' });
    expect(continued.report.steps.find((s) => s.id === 'bad')?.status).toBe('continued');
    const failed = await runYaml(tempDir(), yaml('fail'), client);
    expect(failed.report.status).toBe('failed');
    expect(failed.report.steps.find((s) => s.id === 'bad')?.status).toBe('failed');
    expect(failed.report.steps.find((s) => s.id === 'after')?.status).toBe('not_run');
  });
});
