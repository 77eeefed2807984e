import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { testCodes } from '../../src/errors/catalog-test.js';
import { loadTestFile, runTests } from '../../src/test-runner/index.js';
import { copyRecipes } from './helpers.js';

const docs = readFileSync(new URL('../../docs/testing.md', import.meta.url), 'utf8');

describe('docs/testing.md', () => {
  it('lists every T code of the catalog', () => {
    expect(Object.keys(testCodes).filter((code) => !docs.includes(`| ${code} |`))).toEqual([]);
  });

  it('opens with a test file that loads without a problem next to the shipped recipes', async () => {
    const example = /```yaml\n(# yaml-language-server[\s\S]*?)```/.exec(docs)?.[1];
    expect(example).toBeDefined();
    const file = path.join(copyRecipes(), 'docs-example.test.yaml');
    writeFileSync(file, example ?? '');
    const loaded = await loadTestFile(file);
    expect(loaded.diagnostics).toEqual([]);
    expect(loaded.file?.cases.map((c) => c.name)).toEqual([
      'creates one task per stale deal',
      'a second run creates nothing',
      'a refused task create fails the run and writes nothing',
    ]);
    // And it passes, in this process (the library, not the CLI).
    const run = await runTests({ paths: [file] });
    expect(run.diagnostics).toEqual([]);
    expect(run.results.map((r) => [r.name, r.status, r.failures])).toEqual([
      ['creates one task per stale deal', 'passed', []],
      ['a second run creates nothing', 'passed', []],
      ['a refused task create fails the run and writes nothing', 'passed', []],
    ]);
  });

  it('shows a GitHub Actions workflow that runs recipe test and publishes the JUnit report', () => {
    expect(docs).toContain('npx recipe test recipes/ --coverage --reporter junit --output junit.xml');
    expect(docs).toMatch(/report_paths: junit\.xml/);
  });
});
