import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from './cli-process.js';

const ROOT = new URL('../../', import.meta.url).pathname;

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
    const ignored = readFileSync(join(dir, '.gitignore'), 'utf8');
    for (const line of ['.recipe/', '.env', 'junit.xml', 'dry-run.json', 'out/'])
      expect(ignored.split('\n'), line).toContain(line);
    // Recipes get the schema that knows the connectors' entities and actions; test files their own.
    const settings = JSON.parse(readFileSync(join(dir, '.vscode/settings.json'), 'utf8')) as Record<string, unknown>;
    expect(settings['yaml.schemas']).toEqual({
      './node_modules/recipe/schemas/recipe.connectors.schema.json': [
        'recipes/**/*.yaml',
        'recipes/**/*.yml',
        '!**/*.test.yaml',
        '!**/*.test.yml',
      ],
      './node_modules/recipe/schemas/recipe-test.schema.json': ['**/*.test.yaml', '**/*.test.yml'],
    });
    for (const schema of Object.keys(settings['yaml.schemas'] as object))
      expect(existsSync(join(ROOT, schema.replace('./node_modules/recipe/', ''))), schema).toBe(true);

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
  }, 240_000);

  it('never overwrites: existing files are kept, an existing .gitignore gets .recipe/ added once', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'recipe-init-'));
    writeFileSync(join(dir, '.gitignore'), 'node_modules/');
    const first = await runCli(['init'], { cwd: dir });
    expect(first.stdout).toContain('updated  .gitignore (added .recipe/, .env, junit.xml, dry-run.json, out/)');
    expect(readFileSync(join(dir, '.gitignore'), 'utf8')).toBe(
      'node_modules/\n# recipe: local database, reports\n.recipe/\n.env\njunit.xml\ndry-run.json\nout/\n',
    );
    writeFileSync(join(dir, 'recipes/deals-closing-soon.yaml'), '# mine\n');
    const second = await runCli(['init', '.'], { cwd: dir });
    expect(second.code).toBe(0);
    expect(second.stdout).toContain('kept     recipes/deals-closing-soon.yaml (exists)');
    expect(second.stdout).toContain(
      'kept     .gitignore (already ignores .recipe/, .env, junit.xml, dry-run.json, out/)',
    );
    expect(readFileSync(join(dir, 'recipes/deals-closing-soon.yaml'), 'utf8')).toBe('# mine\n');
  });

  it('warns when package.json takes recipe from a file: path outside the repository', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'recipe-init-'));
    mkdirSync(join(dir, '.git'));
    const manifest = (spec: string) =>
      writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'mine', devDependencies: { recipe: spec } }));
    manifest('file:../recipe/recipe-0.1.0.tgz');
    const outside = await runCli(['init'], { cwd: dir });
    expect(outside.code).toBe(0);
    expect(outside.stderr).toContain(
      'warning: package.json installs recipe from "file:../recipe/recipe-0.1.0.tgz", outside this repository',
    );
    expect(outside.stderr).toContain('npm install --save-dev ./vendor/recipe-X.tgz');
    manifest('file:vendor/recipe-0.1.0.tgz');
    expect((await runCli(['init'], { cwd: dir })).stderr).not.toContain('warning');
    manifest('git+https://github.com/OWNER/recipe.git');
    expect((await runCli(['init'], { cwd: dir })).stderr).not.toContain('warning');
  });
});
