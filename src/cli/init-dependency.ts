import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { dirname, isAbsolute, join, relative, resolve } from 'node:path';

/**
 * The warning `recipe init` prints when the project's package.json takes `recipe` from a `file:` path
 * outside the repository (`npm install ../recipe/recipe-0.1.0.tgz`): the lockfile records that path, which a
 * fresh clone on a CI runner does not have, so `npm ci` fails there with ENOENT. Undefined when fine.
 */
export async function outsideFileDependency(root: string): Promise<string | undefined> {
  const manifest = findUp(root, 'package.json');
  if (manifest === undefined) return undefined;
  let pkg: { dependencies?: Record<string, unknown>; devDependencies?: Record<string, unknown> };
  try {
    pkg = JSON.parse(await readFile(manifest, 'utf8')) as typeof pkg;
  } catch {
    return undefined;
  }
  const spec = pkg.devDependencies?.recipe ?? pkg.dependencies?.recipe;
  if (typeof spec !== 'string' || !spec.startsWith('file:')) return undefined;
  const target = resolve(dirname(manifest), spec.slice('file:'.length));
  const gitDir = findUp(dirname(manifest), '.git');
  const repository = gitDir === undefined ? dirname(manifest) : dirname(gitDir);
  const inside = relative(repository, target);
  if (inside !== '' && !inside.startsWith('..') && !isAbsolute(inside)) return undefined;
  const shown = relative(process.cwd(), manifest) || manifest;
  return (
    `warning: ${shown} installs recipe from "${spec}", outside this repository: a fresh clone (a CI runner) ` +
    'does not have it, and `npm ci` fails there with ENOENT. Install it from its git URL ' +
    '(npm install --save-dev git+https://github.com/OWNER/recipe.git) or from a tarball committed here ' +
    '(npm pack into vendor/, then npm install --save-dev ./vendor/recipe-X.tgz); see the README\'s "Install"'
  );
}

/** The nearest `name` in `dir` or its ancestors. */
function findUp(dir: string, name: string): string | undefined {
  for (let at = dir; ; at = dirname(at)) {
    if (existsSync(join(at, name))) return join(at, name);
    if (dirname(at) === at) return undefined;
  }
}
