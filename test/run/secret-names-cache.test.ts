/**
 * The project's secret names kept in .recipe/secret-names.json: read instead of the file while its size and
 * mtime stay, the file read again once it changed, and nothing written where there is no .recipe/ folder.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { projectSecretNames } from '../../src/run/project-secrets.js';

const roots: string[] = [];
afterAll(() => {
  for (const r of roots) rmSync(r, { recursive: true, force: true });
});

function project(withRecipeDir: boolean, secrets: string): { root: string; recipe: string } {
  const root = mkdtempSync(join(tmpdir(), 'secret-names-'));
  roots.push(root);
  if (withRecipeDir) mkdirSync(join(root, '.recipe'));
  const recipe = join(root, 'a.yaml');
  writeFileSync(recipe, `version: 1\nname: a\nsecrets: ${secrets}\nsteps:\n  - log: hi\n`);
  return { root, recipe };
}

describe('secret names kept between runs', () => {
  it('writes the names per file, and answers from the cache while the file is unchanged', () => {
    const { root, recipe } = project(true, '[A_TOKEN]');
    expect(projectSecretNames(root).names).toEqual(['A_TOKEN']);
    const cacheFile = join(root, '.recipe', 'secret-names.json');
    const kept = JSON.parse(readFileSync(cacheFile, 'utf8')) as { files: Record<string, unknown[]> };
    expect(kept.files[recipe]?.[2]).toEqual(['A_TOKEN']);
    expect(statSync(cacheFile).mode & 0o777).toBe(0o600);

    // Another process (a fresh root path, so nothing is memoised here) trusts an entry whose size and mtime match.
    const other = project(true, '[B_TOKEN]');
    const info = statSync(other.recipe);
    writeFileSync(
      join(other.root, '.recipe', 'secret-names.json'),
      JSON.stringify({ version: 1, files: { [other.recipe]: [info.size, info.mtimeMs, ['FROM_CACHE']] } }),
    );
    expect(projectSecretNames(other.root).names).toEqual(['FROM_CACHE']);

    // Once the file changes it is read again.
    writeFileSync(other.recipe, readFileSync(other.recipe, 'utf8').replace('[B_TOKEN]', '[B_TOKEN, C_TOKEN]'));
    expect(projectSecretNames(other.root).names).toEqual(['B_TOKEN', 'C_TOKEN']);
  });

  it('reads past a damaged cache, and creates no .recipe/ folder', () => {
    const damaged = project(true, '[D_TOKEN]');
    writeFileSync(join(damaged.root, '.recipe', 'secret-names.json'), '{ not json');
    expect(projectSecretNames(damaged.root).names).toEqual(['D_TOKEN']);

    const bare = project(false, '[E_TOKEN]');
    expect(projectSecretNames(bare.root).names).toEqual(['E_TOKEN']);
    expect(existsSync(join(bare.root, '.recipe'))).toBe(false);
  });
});
