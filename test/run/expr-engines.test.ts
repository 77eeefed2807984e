/** `recipe run -v` (debug log lines) says which expressions run compiled and which jsonata evaluates, and why. */
import { afterAll, describe, expect, it } from 'vitest';
import { runYaml, tempDir, testClient } from './helpers.js';

const client = testClient('http://127.0.0.1:9', { clientId: 'id', clientSecret: 'secret' });
afterAll(() => client.close());

describe('debug log of the expression engines', () => {
  it('lists each expression with its engine, and the hand-backs of the run', async () => {
    const { report, logs } = await runYaml(
      tempDir(),
      `version: 1
name: engines
steps:
  - id: doubled
    transform: "\${ [1, 2, 3].($ * 2) }"
  - id: parent
    transform: "\${ {'a': {'b': 1}}.a.b.%.b }"
  - set:
      f: "\${ function($x) { $x + 1 } }"
outputs:
  n: "\${ $count($doubled) }"
`,
      client,
    );
    expect(report.status).toBe('ok');
    expect(logs).toContain('debug: expressions: 3 of 4 compiled to JS, the others run in jsonata');
    expect(logs.some((l) => /^debug: expression .*main\.yaml:5:\d+ compiled: \[1, 2, 3\]/.test(l))).toBe(true);
    expect(
      logs.some((l) => /^debug: expression .*main\.yaml:7:\d+ jsonata \(the parent operator \(%\)\)/.test(l)),
    ).toBe(true);
  });
});
