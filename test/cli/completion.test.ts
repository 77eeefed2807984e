/**
 * Shell completion as installed in a project (issue 23 point 6): the bash script completes `recipe`,
 * `npx recipe` and `node_modules/.bin/recipe`, and asks the CLI at TAB time for run ids (`resume`,
 * `runs show`, from the journal of the folder) and `docs` topics. Run in a real bash with the script sourced.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { RECIPE_BIN, runCli } from './cli-process.js';

let script: string;
let project: string;
let runId: string;

beforeAll(async () => {
  script = (await runCli(['completion', 'bash'])).stdout;
  // A project with recipe as a dev dependency (its bin linked as npm links it) and one journaled run.
  project = mkdtempSync(join(tmpdir(), 'recipe-completion-'));
  mkdirSync(join(project, 'node_modules/.bin'), { recursive: true });
  symlinkSync(RECIPE_BIN, join(project, 'node_modules/.bin/recipe'));
  writeFileSync(join(project, 'hello.yaml'), 'version: 1\nname: hello\nsteps:\n  - log: hi\n');
  const run = await runCli(['run', 'hello.yaml', '--json', '--run-id', 'hello-0001'], { cwd: project });
  runId = (JSON.parse(run.stdout) as { run_id: string }).run_id;
}, 120_000);

/** What bash offers for `words` (the last one being completed), with the script sourced, in the project. */
function complete(...words: string[]): string[] {
  const bash = `${script}
COMP_WORDS=(${words.map((w) => `'${w}'`).join(' ')}); COMP_CWORD=${words.length - 1}
_recipe_complete; printf '%s\\n' "\${COMPREPLY[@]}"`;
  return execFileSync('bash', ['-c', bash], { cwd: project, encoding: 'utf8', timeout: 60_000 })
    .split('\n')
    .filter(Boolean);
}

describe('bash completion', () => {
  it('is registered for recipe, node_modules/.bin/recipe and npx', () => {
    const registered = execFileSync('bash', ['-c', `${script}\ncomplete -p`], { encoding: 'utf8' });
    expect(registered).toMatch(/complete -o default -F _recipe_complete .*recipe/);
    expect(registered).toContain('node_modules/.bin/recipe');
    expect(registered).toMatch(/_recipe_complete npx$/m);
  });

  it('completes subcommands and flags after npx recipe and node_modules/.bin/recipe', () => {
    expect(complete('npx', 'rec')).toEqual(['recipe']);
    expect(complete('npx', 'recipe', 'va')).toEqual(['validate']);
    expect(complete('npx', 'recipe', 'run', '--dr')).toEqual(['--dry-run', '--drop-read-answers']);
    expect(complete('node_modules/.bin/recipe', 'validate', '--format', '')).toEqual(['text', 'json', 'github']);
    expect(complete('npx', 'recipe', 'runs', 'sh')).toEqual(['show']);
  });

  it('completes run ids for resume and runs show, from the journal of the folder', () => {
    expect(runId).toBe('hello-0001');
    expect(complete('node_modules/.bin/recipe', 'resume', 'hello')).toEqual([runId]);
    expect(complete('node_modules/.bin/recipe', 'runs', 'show', '')).toEqual([runId]);
  }, 60_000);

  it('completes docs topics: entities and ENTITY.ACTION', () => {
    const topics = complete('node_modules/.bin/recipe', 'docs', 'deals');
    expect(topics).toContain('deals');
    expect(topics).toContain('deals.list');
  }, 60_000);
});

describe('recipe __complete', () => {
  it('lists nothing and creates no journal in a folder without one', async () => {
    const empty = mkdtempSync(join(tmpdir(), 'recipe-completion-empty-'));
    const r = await runCli(['__complete', 'runs'], { cwd: empty });
    expect(r).toMatchObject({ code: 0, stdout: '', stderr: '' });
    expect(execFileSync('ls', ['-A', empty], { encoding: 'utf8' })).toBe('');
  });

  it('is hidden from help and from the completion scripts', async () => {
    expect((await runCli(['--help'])).stdout).not.toContain('__complete');
    expect(script).not.toMatch(/__complete\)/);
  });
});
