import { existsSync, readFileSync } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import ignore, { type Ignore } from 'ignore';

/** A YAML file a folder walk passed over, and why. */
export interface SkippedFile {
  readonly file: string;
  readonly reason: string;
}

/** What `recipe validate DIR` looks at: the recipe files, and the YAML files it skipped. */
export interface FoundFiles {
  readonly recipes: string[];
  readonly skipped: SkippedFile[];
}

const YAML_FILE = /\.ya?ml$/i;
/** `recipe test` files and fixture files kept beside recipes (recipes/x.test.yaml, recipes/crm.fixtures.yaml). */
const TEST_FILE = /\.test\.ya?ml$/i;
const FIXTURES_FILE = /\.fixtures\.ya?ml$/i;
const FIXTURE_FOLDERS = new Set(['fixtures', '__fixtures__']);
const IGNORE_FILE = '.recipeignore';
/** Top-level keys only recipes have; a YAML file with none of them (and some top-level key) is not one. */
const RECIPE_KEYS = new Set(['version', 'steps', 'connector', 'secrets']);

/**
 * The recipe files named by `paths`. A file named on the command line is always taken (a path that does not
 * exist too, so loading it reports Y001). Folders are walked recursively for *.yaml and *.yml, sorted, and
 * skip: hidden entries and node_modules; what a `.recipeignore` (gitignore syntax; in the working directory
 * or in any walked folder, relative to its own folder) ignores; test files (*.test.yaml), fixture files
 * (*.fixtures.yaml) and anything under a `fixtures/` folder; and YAML whose top-level keys include none of `version`, `steps`, `connector`, `secrets`
 * (a fixture file, a CI workflow, a compose file): a recipe has at least the first two.
 */
export async function findRecipeFiles(paths: readonly string[], cwd = process.cwd()): Promise<FoundFiles> {
  const found: { recipes: string[]; skipped: SkippedFile[] } = { recipes: [], skipped: [] };
  const base = readIgnoreFile(cwd);
  for (const p of paths) {
    let info;
    try {
      info = await stat(p);
    } catch {
      found.recipes.push(p);
      continue;
    }
    if (!info.isDirectory()) found.recipes.push(p);
    else await walk(p, base ? [{ dir: path.resolve(cwd), rules: base }] : [], found);
  }
  return found;
}

interface Rules {
  readonly dir: string;
  readonly rules: Ignore;
}

async function walk(dir: string, inherited: readonly Rules[], found: { recipes: string[]; skipped: SkippedFile[] }) {
  const own = readIgnoreFile(dir);
  const rules = own ? [...inherited, { dir: path.resolve(dir), rules: own }] : inherited;
  const entries = await readdir(dir, { withFileTypes: true });
  entries.sort((a, b) => a.name.localeCompare(b.name));
  for (const entry of entries) {
    if (entry.name.startsWith('.') || entry.name === 'node_modules') continue;
    const full = path.join(dir, entry.name);
    const isDir = entry.isDirectory();
    if (!isDir && !(entry.isFile() && YAML_FILE.test(entry.name))) continue;
    if (isIgnored(full, isDir, rules)) {
      if (!isDir) found.skipped.push({ file: full, reason: `ignored by ${IGNORE_FILE}` });
      continue;
    }
    if (isDir) await walk(full, rules, found);
    else {
      const reason = notARecipe(full);
      if (reason) found.skipped.push({ file: full, reason });
      else found.recipes.push(full);
    }
  }
}

function isIgnored(full: string, isDir: boolean, rules: readonly Rules[]): boolean {
  const abs = path.resolve(full);
  return rules.some(({ dir, rules: ig }) => {
    const rel = path.relative(dir, abs);
    if (rel === '' || rel.startsWith('..') || path.isAbsolute(rel)) return false;
    const posix = rel.split(path.sep).join('/');
    return ig.ignores(isDir ? `${posix}/` : posix);
  });
}

function readIgnoreFile(dir: string): Ignore | undefined {
  const file = path.join(dir, IGNORE_FILE);
  if (!existsSync(file)) return undefined;
  return ignore().add(readFileSync(file, 'utf8'));
}

/** Why a YAML file found in a folder is not a recipe, or undefined when it may be one. */
function notARecipe(file: string): string | undefined {
  if (TEST_FILE.test(file)) return 'a test file (*.test.yaml)';
  if (FIXTURES_FILE.test(file)) return 'a fixtures file (*.fixtures.yaml)';
  if (
    path
      .dirname(file)
      .split(path.sep)
      .some((part) => FIXTURE_FOLDERS.has(part))
  )
    return 'in a fixtures folder';
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return undefined; // unreadable: loading it reports Y001
  }
  // Top-level block keys (column 0). A file with none (flow style, a list, garbage) is checked as a recipe.
  const keys = [...text.matchAll(/^([A-Za-z_][\w-]*|"[^"]*"|'[^']*')[ \t]*:(?:[ \t]|$)/gm)].map((m) =>
    m[1]!.replace(/^["']|["']$/g, ''),
  );
  if (keys.length === 0 || keys.some((k) => RECIPE_KEYS.has(k))) return undefined;
  return `not a recipe (top-level ${keys.slice(0, 3).join(', ')}${keys.length > 3 ? ', ...' : ''}; no version or steps)`;
}
