import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { copyRecipes, lineOf, recipe } from './helpers.js';

const modeline = '# yaml-language-server: $schema=../schemas/recipe-test.schema.json\n';

describe('recipe test: invalid test files', () => {
  it('reports every problem at FILE:LINE:COL with its code and exits 2', async () => {
    const dir = copyRecipes();
    const file = path.join(dir, 'broken.test.yaml');
    writeFileSync(
      file,
      `${modeline}recipe: pipeline-report.yaml
fixtures: crm-small.fixtures.yaml
cases:
  - name: one
    inputs: { pipelin: default }
  - name: one
    after: on
  - name: three
    expect: { status: succeeded, error: X003, outptus: {} }
  - name: four
    expect: { outputs: { n: "\${ $actual > }" } }
`,
    );
    const res = await recipe(['test', file], { cwd: path.dirname(dir) });
    expect(res.code).toBe(2);
    const f = 'recipes/broken.test.yaml';
    expect(res.stderr).toContain(`${f}:10:47: S006 cases[2].expect: unknown field "outptus" (did you mean "outputs"?)`);
    // Fixed, the schema problem goes away and the semantic ones show.
    writeFileSync(file, readFileSync(file, 'utf8').replace('outptus', 'outputs'));
    const again = await recipe(['test', file], { cwd: path.dirname(dir) });
    expect(again.code).toBe(2);
    expect(again.stderr).toContain(`${f}:6:15: I003 unknown input "pipelin" (did you mean "pipeline"?)`);
    expect(again.stderr).toContain(`${f}:7:11: T005 duplicate case name "one" (first at line 5)`);
    expect(again.stderr).toContain(`${f}:8:12: T006 after: no case named "on" above this one`);
    expect(again.stderr).toContain(`${f}:10:23: T009 expect: status succeeded contradicts an expected error`);
    expect(again.stderr).toMatch(new RegExp(`${f}:12:\\d+: E001 expression syntax error`));
    expect(again.stdout).toMatch(/^0 passed, 0 failed$/m);
  });

  it('names a missing recipe, fixture file or cassette', async () => {
    const dir = copyRecipes();
    const file = path.join(dir, 'missing.test.yaml');
    writeFileSync(
      file,
      `${modeline}recipe: nowhere.yaml\nfixtures: nothing.yaml\ncases:\n  - name: a\n    cassette: cassettes/none.json\n`,
    );
    const res = await recipe(['test', file], { cwd: path.dirname(dir) });
    expect(res.code).toBe(2);
    expect(res.stderr).toContain('recipes/missing.test.yaml:2:9: T001 recipe recipes/nowhere.yaml not found');
    expect(res.stderr).toContain('recipes/missing.test.yaml:3:11: T003 fixtures nothing.yaml: no such file');
  });

  it('exits 2 when no test file is found', async () => {
    const res = await recipe(['test', path.join(copyRecipes(), 'lib')]);
    expect(res.code).toBe(2);
    expect(res.stderr).toContain('T010 no test files (*.test.yaml) found');
  });
});

describe('recipe test: CI output', () => {
  it('prints GitHub annotations at the failed expectation when GITHUB_ACTIONS=true, and JSON with --reporter json', async () => {
    const dir = copyRecipes();
    const testFile = path.join(dir, 'pipeline-report.test.yaml');
    writeFileSync(testFile, readFileSync(testFile, 'utf8').replace('open_deals: 4', 'open_deals: 5'));
    const res = await recipe(['test', testFile, '--reporter', 'json'], {
      cwd: path.dirname(dir),
      env: { GITHUB_ACTIONS: 'true' },
    });
    expect(res.code).toBe(1);
    const line = lineOf(readFileSync(testFile, 'utf8'), 'open_deals: 5');
    // stdout carries the JSON report, so the annotations and the text report go to stderr.
    expect(res.stderr).toContain(
      `::error file=recipes/pipeline-report.test.yaml,line=${line},col=21,title=recipe test%3A groups the open deals by stage in pipeline order::expect.outputs.open_deals: expected 5, got 4`,
    );
    const report = JSON.parse(res.stdout) as {
      summary: { passed: number; failed: number };
      cases: {
        name: string;
        status: string;
        failures: { what: string; line: number; expected: unknown; actual: unknown }[];
      }[];
    };
    expect(report.summary.failed).toBe(1);
    const failed = report.cases.find((c) => c.status === 'failed');
    expect(failed?.failures).toEqual([
      {
        what: 'expect.outputs.open_deals',
        file: 'recipes/pipeline-report.test.yaml',
        line,
        column: 21,
        expected: 5,
        actual: 4,
      },
    ]);
  });

  it('recipe validate --format github prints one annotation per problem', async () => {
    const dir = copyRecipes();
    const bad = path.join(dir, 'bad.yaml');
    writeFileSync(bad, 'version: 1\nname: bad\nsteps:\n  - exectue: {}\n');
    const res = await recipe(['validate', '--format', 'github', path.relative(path.dirname(dir), bad)], {
      cwd: path.dirname(dir),
    });
    expect(res.code).toBe(2);
    expect(res.stdout).toBe(
      '::error file=recipes/bad.yaml,line=4,col=5,title=S002::unknown step kind key "exectue" (did you mean "execute"?)\n',
    );
  });
});

describe('recipe test: coverage and snapshots', () => {
  it('--coverage reports steps ran, skipped by when, never reached, and on_error branches, as text and JSON', async () => {
    const dir = copyRecipes();
    const cov = path.join(dir, 'coverage.json');
    const res = await recipe(
      ['test', path.join(dir, 'contacts-export.test.yaml'), '--coverage', '--coverage-output', cov],
      {
        cwd: path.dirname(dir),
      },
    );
    expect(res.code).toBe(0);
    expect(res.stdout).toContain('step coverage:');
    expect(res.stdout).toMatch(/recipes\/contacts-export\.yaml {2}6\/6 steps ran \(100%\)/);
    const json = JSON.parse(readFileSync(cov, 'utf8')) as {
      recipe: string;
      percent: number;
      steps: { id: string; state: string }[];
    }[];
    expect(json[0]?.recipe).toBe('recipes/contacts-export.yaml');
    expect(json[0]?.steps.find((s) => s.id === 'created_folder')?.state).toBe('ran');

    // Only the case with an existing folder: the folder create is only ever skipped by its `when`.
    const one = await recipe(
      ['test', path.join(dir, 'contacts-export.test.yaml'), '--coverage', '-t', 'existing folder'],
      {
        cwd: path.dirname(dir),
      },
    );
    expect(one.stdout).toMatch(/5\/6 steps ran \(83\.3%\)/);
    expect(one.stdout).toMatch(/line \d+ {2}created_folder \(execute\): only skipped by `when`/);
  });

  it('--update rewrites a snapshot case from what the recipe did, and leaves the rest of the file as it was', async () => {
    const dir = copyRecipes();
    const file = path.join(dir, 'deal-stage-snapshot.test.yaml');
    const before = readFileSync(file, 'utf8');
    // Make the snapshot stale: drop the expected outputs.
    const stale = before.replace(/ {6}outputs:\n[\s\S]*?(?= {6}writes:)/, '      outputs: { all: [] }\n');
    writeFileSync(file, stale);
    const failing = await recipe(['test', file], { cwd: path.dirname(dir) });
    expect(failing.code).toBe(1);
    const res = await recipe(['test', file, '--update'], { cwd: path.dirname(dir) });
    expect(res.code).toBe(0);
    expect(res.stdout).toContain('(snapshot updated)');
    expect(res.stdout).toContain('updated recipes/deal-stage-snapshot.test.yaml');
    const after = readFileSync(file, 'utf8');
    expect(after).toBe(before);
    expect((await recipe(['test', file], { cwd: path.dirname(dir) })).code).toBe(0);
  });
});

describe('recipe test --jobs', () => {
  it('runs cases in worker threads, each with its own embedded service, with the same results', async () => {
    const dir = copyRecipes();
    const file = path.join(dir, 'stale-deals-follow-up.test.yaml');
    const one = await recipe(['test', file, '--reporter', 'json'], { cwd: path.dirname(dir) });
    const two = await recipe(['test', file, '--reporter', 'json', '--jobs', '2'], { cwd: path.dirname(dir) });
    expect(two.code).toBe(0);
    const strip = (text: string) =>
      (JSON.parse(text) as { cases: { name: string; status: string; writes?: unknown }[] }).cases.map((c) => ({
        name: c.name,
        status: c.status,
        writes: c.writes,
      }));
    expect(strip(two.stdout)).toEqual(strip(one.stdout));
  });
});

describe('recipe test --record', () => {
  it('needs a live service: exits 2 with C001 when CONNECTOR_API_URL is not set', async () => {
    const res = await recipe(['test', path.join(copyRecipes(), 'pipeline-report.test.yaml'), '--record']);
    expect(res.code).toBe(2);
    expect(res.stderr).toContain('C001 configuration: --record needs a live service');
  });
});
