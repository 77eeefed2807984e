import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from './cli-process.js';

/** `recipe init` (issue 12 point 6): scaffold a repository, then validate and run what it made. */
describe('recipe init', () => {
  it('scaffolds a recipes repository that validates and runs hermetically', async () => {
    const root = mkdtempSync(join(tmpdir(), 'recipe-init-'));
    const init = await runCli(['init', 'repo'], { cwd: root });
    expect(init.code).toBe(0);
    const dir = join(root, 'repo');
    for (const file of [
      'recipes/deals-closing-soon.yaml',
      'recipes/deals-closing-soon.test.yaml',
      'fixtures/crm.yaml',
      '.github/workflows/recipes.yml',
      '.vscode/settings.json',
      '.gitignore',
    ]) {
      expect(init.stdout).toContain(`created  repo/${file}`);
      expect(existsSync(join(dir, file)), file).toBe(true);
    }
    expect(readFileSync(join(dir, '.gitignore'), 'utf8')).toMatch(/^\.recipe\/$/m);
    const settings = JSON.parse(readFileSync(join(dir, '.vscode/settings.json'), 'utf8')) as Record<string, unknown>;
    expect(settings['yaml.schemas']).toEqual({
      './node_modules/recipe/schemas/recipe.schema.json': ['recipes/**/*.yaml', 'recipes/**/*.yml'],
    });

    // The whole repository validates: the fixtures, the test file and the workflow are skipped, not reported.
    const validate = await runCli(['validate', '.'], { cwd: dir });
    expect(validate.code).toBe(0);
    expect(validate.stderr).toBe('1 file, 0 problems; 2 skipped (not recipes)\n');

    // Its tests pass as scaffolded.
    const tests = await runCli(['test'], { cwd: dir });
    expect(tests.code, tests.stdout + tests.stderr).toBe(0);
    expect(tests.stdout).toContain('3 passed, 0 failed');

    const args = [
      'recipes/deals-closing-soon.yaml',
      '--fixtures',
      'fixtures/crm.yaml',
      '--now',
      '2026-07-15T09:00:00Z',
    ];
    const dry = await runCli(['run', ...args, '--dry-run', '--json'], { cwd: dir });
    expect(dry.code).toBe(0);
    const report = JSON.parse(dry.stdout) as { outputs: unknown; dry_run_writes: unknown[] };
    expect(report.outputs).toEqual({ open_deals: 2, open_amount: 42000, follow_ups: ['Acme renewal'] });
    expect(report.dry_run_writes).toHaveLength(1);
    const real = await runCli(['run', ...args], { cwd: dir });
    expect(real.code).toBe(0);
    expect(real.stdout).toContain('open_deals: 2');
    expect(existsSync(join(dir, '.recipe'))).toBe(false); // --fixtures runs in memory
  }, 60_000);

  it('never overwrites: existing files are kept, an existing .gitignore gets .recipe/ added once', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'recipe-init-'));
    writeFileSync(join(dir, '.gitignore'), 'node_modules/');
    const first = await runCli(['init'], { cwd: dir });
    expect(first.stdout).toContain('updated  .gitignore (added .recipe/)');
    expect(readFileSync(join(dir, '.gitignore'), 'utf8')).toBe(
      'node_modules/\n# recipe: the local database\n.recipe/\n',
    );
    writeFileSync(join(dir, 'recipes/deals-closing-soon.yaml'), '# mine\n');
    const second = await runCli(['init', '.'], { cwd: dir });
    expect(second.code).toBe(0);
    expect(second.stdout).toContain('kept     recipes/deals-closing-soon.yaml (exists)');
    expect(second.stdout).toContain('kept     .gitignore (already ignores .recipe/)');
    expect(readFileSync(join(dir, 'recipes/deals-closing-soon.yaml'), 'utf8')).toBe('# mine\n');
  });
});
