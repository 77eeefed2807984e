import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, isAbsolute, join, relative, resolve } from 'node:path';
import type { Redactor } from '../client/index.js';
import { parseSource } from '../source/index.js';
import {
  cacheFileOf,
  readNamesCache,
  writeNamesCache,
  type CachedFile,
  type CachedListing,
  type ListedEntry,
} from './secret-names-cache.js';

/**
 * Secrets masked by value across runs: a value that reached data through one recipe (its `secrets:`) must not
 * be journaled, reported or traced in clear by another recipe that reads it. So a run masks the values of
 * every secret name that any recipe of its project declares, read from its own environment.
 *
 * The project of a recipe is the nearest folder above it (its own included) holding `.recipe/` (a journal),
 * `.git` or `recipe.lock`; without one, the working directory when the recipe is inside it (`recipe run
 * reports/x.yaml` from the project's folder), else the recipe's own folder. A fleet worker's project is its recipes
 * folder. The walk skips hidden entries, node_modules, test and fixture files and fixtures/ folders, and stops after MAX_YAML_FILES YAML files or
 * MAX_ENTRIES directory entries (the rest is not read: a warning says so). Each file's names are kept by path,
 * size and mtime, and each folder's entries by its mtime, in the process and in the project's
 * `.recipe/secret-names.json` (secret-names-cache.ts), so a run reads a file or lists a folder again only when
 * it changed; a file is parsed only when it has a top-level `secrets:` line.
 */

/** Beyond these, a project's walk stops (a recipe run from a home folder must not read the whole disk). */
const MAX_YAML_FILES = 2000;
const MAX_ENTRIES = 20_000;

/** What marks a project's root folder. */
const ROOT_MARKERS = ['.recipe', '.git', 'recipe.lock'];

/** How long ago a folder must have changed for its listing to be kept. */
const SETTLED_MS = 2000;

const YAML_FILE = /\.ya?ml$/i;
/** Test and fixture files (as `recipe validate DIR` skips them): their `secrets:` are test values, not names. */
const NOT_A_RECIPE = /\.(test|fixtures)\.ya?ml$/i;
const FIXTURE_FOLDERS = new Set(['fixtures', '__fixtures__']);
const SECRETS_LINE = /^secrets[ \t]*:/m;
/** `secrets: [A, B]` on one line, and `secrets:` followed by `- A` lines: how recipes write it. */
const FLOW_LIST = /^secrets[ \t]*:[ \t]*\[([^\]\n]*)\][ \t]*(?:#.*)?$/m;
const BLOCK_LIST = /^secrets[ \t]*:[ \t]*(?:#.*)?\n((?:[ \t]+-[ \t]*[^\n]*\n?)+)/m;
/** `secrets: { NAME: value }`: a test file's values (a recipe lists names), so no names. */
const FLOW_MAP = /^secrets[ \t]*:[ \t]*\{/m;
const PLAIN_NAME = /^["']?([A-Za-z_][A-Za-z0-9_]*)["']?[ \t]*(?:#.*)?$/;
const SECRET_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** The secret names a project's recipes declare, and whether the walk stopped at its limits. */
export interface ProjectSecretNames {
  readonly root: string;
  readonly names: readonly string[];
  readonly truncated: boolean;
}

/** Names per file, valid while the file's size and mtime stay (a worker runs many jobs from one folder). */
const byFile = new Map<string, CachedFile>();
/** The entries the walk looks into per folder, valid while the folder's mtime stays. */
const byDir = new Map<string, CachedListing>();

/** The folder whose recipes make a recipe file's project (see above). */
export function projectRootOf(recipeFile: string, cwd: string = process.cwd()): string {
  const own = dirname(resolve(cwd, recipeFile));
  for (let dir = own; ; dir = dirname(dir)) {
    if (ROOT_MARKERS.some((m) => existsSync(join(dir, m)))) return dir;
    if (dirname(dir) === dir) break;
  }
  const work = resolve(cwd);
  const rel = relative(work, own);
  return rel.startsWith('..') || isAbsolute(rel) ? own : work;
}

/** Every secret name declared by a recipe under `root` (sorted). */
export function projectSecretNames(root: string): ProjectSecretNames {
  const names = new Set<string>();
  const budget = { files: MAX_YAML_FILES, entries: MAX_ENTRIES };
  const cacheFile = cacheFileOf(resolve(root));
  if (cacheFile !== undefined && !loadedCaches.has(cacheFile)) {
    loadedCaches.add(cacheFile);
    const kept = readNamesCache(cacheFile);
    for (const [path, entry] of kept.files) if (!byFile.has(path)) byFile.set(path, entry);
    for (const [path, listing] of kept.dirs) if (!byDir.has(path)) byDir.set(path, listing);
  }
  const walked: Walked = { seen: new Map(), dirs: new Map(), read: 0 };
  const truncated = !walk(resolve(root), names, budget, walked);
  if (cacheFile !== undefined && walked.read > 0) writeNamesCache(cacheFile, walked);
  return { root, names: [...names].sort(), truncated };
}

/** The cache files already read into byFile and byDir by this process. */
const loadedCaches = new Set<string>();

/** The folders and YAML files one walk went through, and how many it had to read (cache misses). */
interface Walked {
  readonly seen: Map<string, CachedFile>;
  readonly dirs: Map<string, CachedListing>;
  read: number;
}

/**
 * Adds the values (from `env`) of every secret the project's recipes declare to the redactor. Returns the
 * walk's result so that the caller can warn when it was cut short.
 */
export function maskProjectSecrets(
  redactor: Redactor,
  env: Readonly<Record<string, string | undefined>>,
  root: string,
): ProjectSecretNames {
  // A worker masks before its first journal record and startRun masks again: one walk per redactor and root.
  const done = applied.get(redactor);
  const earlier = done?.root === root && done.env === env ? done.found : undefined;
  if (earlier) return earlier;
  const found = projectSecretNames(root);
  for (const name of found.names) redactor.add(env[name]);
  applied.set(redactor, { root, env, found });
  return found;
}

/** What maskProjectSecrets last added to each redactor (a redactor lives as long as its run's client). */
const applied = new WeakMap<
  Redactor,
  { root: string; env: Readonly<Record<string, string | undefined>>; found: ProjectSecretNames }
>();

/** False when the budget ran out before the walk ended. */
function walk(dir: string, names: Set<string>, budget: { files: number; entries: number }, walked: Walked): boolean {
  const listing = listingOf(dir, walked);
  if (listing === undefined) return true; // unreadable: nothing of it can run either
  // The budget counts every entry, in sorted order, as if each were looked at: a walk cut short at its
  // limits reads the same files whether a folder's listing came from the cache or from the disk.
  let counted = 0;
  for (const entry of listing.entries) {
    budget.entries -= entry.index + 1 - counted;
    counted = entry.index + 1;
    if (budget.entries < 0) return false;
    const full = join(dir, entry.name);
    if (entry.folder) {
      if (!walk(full, names, budget, walked)) return false;
    } else {
      if (--budget.files < 0) return false;
      for (const n of namesOf(full, walked)) names.add(n);
    }
  }
  budget.entries -= listing.count - counted;
  return budget.entries >= 0;
}

/**
 * The entries of a folder the walk looks into (sub-folders and YAML files, not hidden, not node_modules, not
 * fixtures), from the cache while the folder's mtime stays (an entry added, removed or renamed changes it),
 * else read from the disk; undefined when it cannot be read.
 */
function listingOf(dir: string, walked: Walked): CachedListing | undefined {
  let mtimeMs;
  try {
    mtimeMs = statSync(dir).mtimeMs;
  } catch {
    return undefined;
  }
  const cached = byDir.get(dir);
  if (cached && cached.mtimeMs === mtimeMs) {
    walked.dirs.set(dir, cached);
    return cached;
  }
  let all;
  try {
    all = readdirSync(dir, { withFileTypes: true });
  } catch {
    return undefined;
  }
  walked.read++;
  // Sorted by code unit, so a walk cut short at its limits reads the same files on every machine.
  all.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const entries: ListedEntry[] = [];
  all.forEach((entry, index) => {
    const { name } = entry;
    if (name.startsWith('.') || name === 'node_modules' || FIXTURE_FOLDERS.has(name) || NOT_A_RECIPE.test(name)) return;
    if (entry.isDirectory()) entries.push({ name, index, folder: true });
    else if (entry.isFile() && YAML_FILE.test(name)) entries.push({ name, index, folder: false });
  });
  const listing = { mtimeMs, count: all.length, entries };
  // A folder changed in the last moments may change again within the same clock tick (file times come from a
  // coarse clock) and keep its mtime: its listing is kept only once it has settled, as git does with racy entries.
  if (Date.now() - mtimeMs >= SETTLED_MS) {
    byDir.set(dir, listing);
    walked.dirs.set(dir, listing);
  }
  return listing;
}

/** The names a YAML file's top-level `secrets:` lists (none when it has none or does not parse). */
function namesOf(file: string, walked: Walked): readonly string[] {
  let info;
  try {
    info = statSync(file);
  } catch {
    return [];
  }
  const cached = byFile.get(file);
  if (cached && cached.size === info.size && cached.mtimeMs === info.mtimeMs) {
    walked.seen.set(file, cached);
    return cached.names;
  }
  walked.read++;
  let names: string[] = [];
  try {
    const text = readFileSync(file, 'utf8');
    if (SECRETS_LINE.test(text))
      names = (quickNames(text) ?? parsedNames(text, file)).filter((n) => SECRET_NAME.test(n));
  } catch {
    names = [];
  }
  const entry = { size: info.size, mtimeMs: info.mtimeMs, names };
  byFile.set(file, entry);
  walked.seen.set(file, entry);
  return names;
}

/**
 * The names of a list written the usual way, without a YAML parser (it costs more than the whole walk on a
 * cold start); undefined for any other form, which the parser reads.
 */
function quickNames(text: string): string[] | undefined {
  if (FLOW_MAP.test(text)) return [];
  const flow = FLOW_LIST.exec(text);
  const items = flow
    ? flow[1]!.split(',').filter((p) => p.trim() !== '')
    : BLOCK_LIST.exec(text)?.[1]
        ?.split('\n')
        .filter((l) => l.trim() !== '')
        .map((l) => l.replace(/^[ \t]+-/, ''));
  if (items === undefined) return undefined;
  const names: string[] = [];
  for (const item of items) {
    const m = PLAIN_NAME.exec(item.trim());
    if (!m) return undefined;
    names.push(m[1]!);
  }
  return names;
}

function parsedNames(text: string, file: string): string[] {
  const value = parseSource(text, file).value as { secrets?: unknown } | undefined;
  const list = value !== null && typeof value === 'object' ? value.secrets : undefined;
  return Array.isArray(list) ? list.filter((n): n is string => typeof n === 'string') : [];
}
