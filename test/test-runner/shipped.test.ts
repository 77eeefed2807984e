import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'junit2json';
import { describe, expect, it } from 'vitest';
import { copyRecipes, lineOf, recipe, RECIPES } from './helpers.js';

/** `recipe test recipes/`: the shipped recipes' tests, through the CLI, as `npm test` runs them. */
describe('recipe test on the shipped recipes', () => {
  it('every shipped recipe has a test file, and all their cases pass', async () => {
    const res = await recipe(['test', RECIPES]);
    expect(res.stderr).toBe('');
    expect(res.code).toBe(0);
    expect(res.stdout).toMatch(/^\d+ passed, 0 failed$/m);
    for (const f of [
      'pipeline-report',
      'stale-deals-follow-up',
      'ticket-triage',
      'company-rollup',
      'deals-closing-this-month',
      'contacts-export',
      'deal-stage-snapshot',
    ])
      expect(res.stdout).toContain(`${f}.test.yaml`);
  });

  it('a recipe broken on purpose fails its test, with a diff naming the line of the expectation', async () => {
    const dir = copyRecipes();
    const recipeFile = path.join(dir, 'stale-deals-follow-up.yaml');
    // The bug: the task subject loses its "Follow up: " prefix.
    writeFileSync(recipeFile, readFileSync(recipeFile, 'utf8').replace('"Follow up: ${', '"Follow-up ${'));
    const testFile = path.join(dir, 'stale-deals-follow-up.test.yaml');
    const res = await recipe(['test', testFile], { cwd: path.dirname(dir) });
    expect(res.code).toBe(1);
    const text = readFileSync(testFile, 'utf8');
    const line = lineOf(text, 'hs_task_subject: "Follow up: Big deal');
    expect(res.stdout).toContain('✗ creates one task per stale deal');
    expect(res.stdout).toContain(
      `expect.writes[0].params.properties.hs_task_subject at recipes/stale-deals-follow-up.test.yaml:${line}:`,
    );
    expect(res.stdout).toContain('- expected: "Follow up: Big deal [deal-follow-up 501]"');
    expect(res.stdout).toContain('+ actual:   "Follow-up Big deal [deal-follow-up 501]"');
    expect(res.stdout).toMatch(/^\d+ passed, [1-9]\d* failed(, \d+ skipped)?$/m);
  });

  it('writes a JUnit report that a JUnit parser reads: counts, failures and their text', async () => {
    const dir = copyRecipes();
    const recipeFile = path.join(dir, 'ticket-triage.yaml');
    writeFileSync(
      recipeFile,
      readFileSync(recipeFile, 'utf8').replace('associationTypeId: 18', 'associationTypeId: 228'),
    );
    const out = path.join(dir, 'junit.xml');
    const res = await recipe(['test', dir, '--reporter', 'junit', '--output', out], { cwd: path.dirname(dir) });
    expect(res.code).toBe(1);
    const report = (await parse(readFileSync(out, 'utf8'))) as {
      tests: number;
      failures: number;
      testsuite: {
        name: string;
        tests: number;
        failures: number;
        testcase: { name: string; failure?: { message: string; inner: string }[] }[];
      }[];
    };
    const [, nPassed, nFailed, nSkipped] = /^(\d+) passed, (\d+) failed(?:, (\d+) skipped)?$/m.exec(res.stdout) ?? [];
    const total = Number(nPassed) + Number(nFailed) + Number(nSkipped ?? 0);
    expect(report.tests).toBe(total);
    expect(report.failures).toBe(1);
    const suite = report.testsuite.find((s) => s.name === 'recipes/ticket-triage.test.yaml');
    expect(suite?.tests).toBe(3);
    expect(suite?.failures).toBe(1);
    const failed = suite?.testcase.find((c) => c.failure);
    expect(failed?.name).toBe('assigns the unowned high-priority ticket and leaves a note');
    const line = lineOf(readFileSync(path.join(dir, 'ticket-triage.test.yaml'), 'utf8'), 'associationTypeId: 18');
    expect(failed?.failure?.[0]?.message).toContain(
      'expect.writes[1].params.associations[0].types[0].associationTypeId',
    );
    expect(failed?.failure?.[0]?.inner).toContain(`recipes/ticket-triage.test.yaml:${line}:`);
    expect(failed?.failure?.[0]?.inner).toContain('- expected: 18');
    expect(failed?.failure?.[0]?.inner).toContain('+ actual:   228');
  });
});
