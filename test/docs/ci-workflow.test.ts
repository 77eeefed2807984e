/**
 * The CI workflow of docs/running.md works as written (issue 12 point 2): it is the one `recipe init`
 * writes, and its commands pass in a repository made by `recipe init`. The steps that set the machine up
 * (actions/checkout, actions/setup-node, `npm ci`) are what this checkout already is; every `run:` command
 * after them is executed as written, with `npx recipe` running this checkout's CLI.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseSource } from '../../src/source/index.js';
import { extractBlocks, ROOT } from './doc-examples.js';
import { bash, exampleEnv, makeSandbox } from './sandbox.js';

interface WorkflowStep {
  uses?: string;
  run?: string;
}

const block = extractBlocks('docs/running.md').find((b) => b.marker?.name === 'ci-workflow');

describe('the CI workflow in docs/running.md', () => {
  it('is the workflow recipe init writes', () => {
    expect(block).toBeDefined();
    expect(block!.text).toBe(readFileSync(join(ROOT, 'templates/init/github/workflows/recipes.yml'), 'utf8'));
  });

  it('passes: validate, the tests and the dry run on fixtures, in a repository made by recipe init', async () => {
    const workflow = parseSource(block!.text, 'recipes.yml').value as {
      on: Record<string, unknown>;
      jobs: Record<string, { steps: WorkflowStep[] }>;
    };
    expect(Object.keys(workflow.on)).toContain('pull_request');
    const steps = Object.values(workflow.jobs).flatMap((job) => job.steps);
    const setup = steps.filter(
      (s) => s.uses?.startsWith('actions/checkout') || s.uses?.startsWith('actions/setup-node'),
    );
    expect(setup).toHaveLength(2);
    const commands = steps.flatMap((s) => (s.run === undefined ? [] : [s.run.trim()]));
    expect(commands[0]).toBe('npm ci');
    expect(commands.length).toBeGreaterThanOrEqual(3);

    const sandbox = makeSandbox('recipe-ci-');
    const env = exampleEnv(sandbox.path, { CI: 'true' });
    const init = await bash('npx recipe init repo', sandbox.dir, env);
    expect(init.code, init.stderr).toBe(0);
    const repo = join(sandbox.dir, 'repo');
    for (const command of commands.slice(1)) {
      const r = await bash(command, repo, env);
      expect(r.code, `${command}\n${r.stderr}`).toBe(0);
    }
    const report = JSON.parse(readFileSync(join(repo, 'dry-run.json'), 'utf8')) as {
      status: string;
      dry_run: boolean;
      outputs: Record<string, unknown>;
      dry_run_writes: unknown[];
    };
    expect(report).toMatchObject({
      status: 'ok',
      dry_run: true,
      outputs: { open_deals: 2, follow_ups: ['Acme renewal'] },
    });
    expect(report.dry_run_writes).toHaveLength(1);
    // `recipe test` ran the scaffold's test file: its three cases, none failed.
    const junit = readFileSync(join(repo, 'junit.xml'), 'utf8');
    expect(junit).toMatch(/<testsuites[^>]* tests="3"[^>]* failures="0"/);
  }, 120_000);
});
