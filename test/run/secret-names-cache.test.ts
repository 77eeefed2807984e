/**
 * The project's secret names kept in .recipe/secret-names.json: read instead of the file while its size and
 * mtime stay, the file read again once it changed, a folder's listing kept while the folder's mtime stays,
 * and nothing written where there is no .recipe/ folder.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
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
      JSON.stringify({ version: 2, files: { [other.recipe]: [info.size, info.mtimeMs, ['FROM_CACHE']] }, dirs: {} }),
    );
    expect(projectSecretNames(other.root).names).toEqual(['FROM_CACHE']);

    // Once the file changes it is read again.
    writeFileSync(other.recipe, readFileSync(other.recipe, 'utf8').replace('[B_TOKEN]', '[B_TOKEN, C_TOKEN]'));
    expect(projectSecretNames(other.root).names).toEqual(['B_TOKEN', 'C_TOKEN']);
  });

  it('lists a folder again only when its mtime changed (an entry added, removed or renamed)', () => {
    const { root } = project(true, '[TOP_TOKEN]');
    const sub = join(root, 'reports');
    mkdirSync(sub);
    writeFileSync(join(sub, 'r.yaml'), 'version: 1\nname: r\nsecrets: [SUB_TOKEN]\nsteps:\n  - log: hi\n');
    // Only a folder that changed a while ago is kept (one changed within the clock's tick could change again
    // unseen): this one is kept, the project's root, just written, is not.
    utimesSync(sub, new Date(Date.now() - 60_000), new Date(Date.now() - 60_000));
    expect(projectSecretNames(root).names).toEqual(['SUB_TOKEN', 'TOP_TOKEN']);
    const cacheFile = join(root, '.recipe', 'secret-names.json');
    const kept = JSON.parse(readFileSync(cacheFile, 'utf8')) as { dirs: Record<string, [number, number, unknown[]]> };
    expect(kept.dirs[sub]).toEqual([statSync(sub).mtimeMs, 1, [['r.yaml', 0, 0]]]);
    expect(kept.dirs[root]).toBeUndefined();

    // Another process (a fresh root path, so nothing is memoised here) trusts a listing whose mtime matches:
    // one that leaves reports/r.yaml out proves the folder was not listed again.
    const other = project(true, '[TOP_TOKEN]');
    const otherSub = join(other.root, 'reports');
    mkdirSync(otherSub);
    writeFileSync(join(otherSub, 'r.yaml'), 'version: 1\nname: r\nsecrets: [SUB_TOKEN]\nsteps:\n  - log: hi\n');
    utimesSync(otherSub, new Date(Date.now() - 60_000), new Date(Date.now() - 60_000));
    const otherCache = join(other.root, '.recipe', 'secret-names.json');
    writeFileSync(
      otherCache,
      JSON.stringify({ version: 2, files: {}, dirs: { [otherSub]: [statSync(otherSub).mtimeMs, 1, []] } }),
    );
    expect(projectSecretNames(other.root).names).toEqual(['TOP_TOKEN']);

    // A file added to the folder changes its mtime: listed again, and the new file's names are masked.
    writeFileSync(join(otherSub, 's.yaml'), 'version: 1\nname: s\nsecrets: [NEW_TOKEN]\nsteps:\n  - log: hi\n');
    expect(projectSecretNames(other.root).names).toEqual(['NEW_TOKEN', 'SUB_TOKEN', 'TOP_TOKEN']);
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
