import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Diagnostic } from '../errors/index.js';
import { loadRecipe } from './load-recipe.js';
import type { Plan } from './plan.js';

/** The outcome of validating one file. */
export interface FileResult {
  readonly file: string;
  readonly valid: boolean;
  readonly diagnostics: Diagnostic[];
}

const RECIPE_FILE = /\.ya?ml$/i;
/** Test files (`recipe test`) and fixture files sit beside recipes but are not recipes: a folder walk skips them. */
const NOT_A_RECIPE = /\.(test|fixtures)\.ya?ml$/i;

/**
 * The recipe files named by `paths`: files as given, directories walked recursively for *.yaml and *.yml
 * (hidden folders, node_modules, *.test.yaml and *.fixtures.yaml skipped), sorted for stable output. A path that does not exist is kept,
 * so that loading it reports Y001.
 */
export async function collectRecipeFiles(paths: readonly string[]): Promise<string[]> {
  const files: string[] = [];
  for (const p of paths) {
    let info;
    try {
      info = await stat(p);
    } catch {
      files.push(p);
      continue;
    }
    if (info.isDirectory()) files.push(...(await walk(p)));
    else files.push(p);
  }
  return files;
}

async function walk(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true });
  entries.sort((a, b) => a.name.localeCompare(b.name));
  const out: string[] = [];
  for (const entry of entries) {
    if (entry.name.startsWith('.') || entry.name === 'node_modules') continue;
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...(await walk(full)));
    else if (entry.isFile() && RECIPE_FILE.test(entry.name) && !NOT_A_RECIPE.test(entry.name)) out.push(full);
  }
  return out;
}

/** Validates every recipe file named by `paths` (see collectRecipeFiles); never throws for a bad file. */
export async function validateFiles(paths: readonly string[]): Promise<FileResult[]> {
  const results: FileResult[] = [];
  const calledPlans = new Map<string, Plan>();
  for (const file of await collectRecipeFiles(paths)) {
    const { diagnostics } = await loadRecipe(file, { calledPlans });
    results.push({ file, valid: diagnostics.length === 0, diagnostics });
  }
  return results;
}
