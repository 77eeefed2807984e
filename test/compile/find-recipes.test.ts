import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { findRecipeFiles } from '../../src/compile/index.js';

const recipe = 'version: 1\nname: r\nsteps:\n  - log: hi\n';

function tree(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), 'recipe-find-'));
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, name)), { recursive: true });
    writeFileSync(join(root, name), text);
  }
  return root;
}

describe('findRecipeFiles (recipe validate DIR)', () => {
  it('skips test files, fixture folders, YAML that is not a recipe, hidden folders and node_modules', async () => {
    const root = tree({
      'recipes/a.yaml': recipe,
      'recipes/lib/b.yml': recipe,
      'recipes/a.test.yaml': 'recipe: a.yaml\ncases: []\n',
      'fixtures/crm.yaml': 'connectors: []\n',
      'recipes/fixtures/other.yaml': recipe,
      'recipes/crm-small.fixtures.yaml': 'connectors: []\n',
      'compose.yaml': 'services:\n  db: { image: postgres }\n',
      'broken.yaml': 'name: oops\nsteps: [\n', // a recipe with a syntax error is still a recipe
      'flow.yaml': '{version: 1, name: f, steps: [{log: hi}]}\n',
      '.github/workflows/ci.yml': 'on: push\njobs: {}\n',
      'node_modules/x/r.yaml': recipe,
      'notes.txt': 'not yaml',
    });
    const found = await findRecipeFiles([root], root);
    expect(found.recipes.map((f) => relative(root, f))).toEqual([
      'broken.yaml',
      'flow.yaml',
      'recipes/a.yaml',
      'recipes/lib/b.yml',
    ]);
    expect(Object.fromEntries(found.skipped.map((s) => [relative(root, s.file), s.reason]))).toEqual({
      'compose.yaml': 'not a recipe (top-level services; no version or steps)',
      'fixtures/crm.yaml': 'in a fixtures folder',
      'recipes/a.test.yaml': 'a test file (*.test.yaml)',
      'recipes/crm-small.fixtures.yaml': 'a fixtures file (*.fixtures.yaml)',
      'recipes/fixtures/other.yaml': 'in a fixtures folder',
    });
  });

  it('honours .recipeignore (gitignore syntax) in the working directory and in walked folders', async () => {
    const root = tree({
      '.recipeignore': '# drafts are not checked\ndrafts/\n*.wip.yaml\n!keep.wip.yaml\n',
      'recipes/a.yaml': recipe,
      'recipes/b.wip.yaml': recipe,
      'recipes/keep.wip.yaml': recipe,
      'recipes/drafts/c.yaml': recipe,
      'recipes/old/.recipeignore': 'legacy-*.yaml\n',
      'recipes/old/legacy-1.yaml': recipe,
      'recipes/old/current.yaml': recipe,
    });
    const found = await findRecipeFiles([join(root, 'recipes')], root);
    expect(found.recipes.map((f) => relative(root, f))).toEqual([
      'recipes/a.yaml',
      'recipes/keep.wip.yaml',
      'recipes/old/current.yaml',
    ]);
    expect(found.skipped.map((s) => [relative(root, s.file), s.reason])).toEqual([
      ['recipes/b.wip.yaml', 'ignored by .recipeignore'],
      ['recipes/old/legacy-1.yaml', 'ignored by .recipeignore'],
    ]);
  });

  it('takes a file named on the command line even when a folder walk would skip it', async () => {
    const root = tree({ 'fixtures/crm.yaml': 'connectors: []\n' });
    const file = join(root, 'fixtures/crm.yaml');
    expect((await findRecipeFiles([file], root)).recipes).toEqual([file]);
  });
});
