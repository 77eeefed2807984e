import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import type { ConnectorCatalog } from '../catalog/index.js';
import type { Diagnostic } from '../errors/index.js';
import { sortDiagnostics } from '../source/index.js';
import { loadRecipe } from './load-recipe.js';
import type { Plan } from './plan.js';

/** The outcome of validating one file: its errors and warnings (severity tells them apart), in file order. */
export interface FileResult {
  readonly file: string;
  readonly valid: boolean;
  readonly diagnostics: Diagnostic[];
}

/** How to validate: the connector catalog to check calls against, and whether warnings fail a file. */
export interface ValidateOptions {
  readonly catalog?: ConnectorCatalog;
  readonly strict?: boolean;
}

const RECIPE_FILE = /\.ya?ml$/i;

/**
 * The recipe files named by `paths`: files as given, directories walked recursively for *.yaml and *.yml
 * (hidden folders and node_modules skipped), sorted for stable output. A path that does not exist is kept,
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
    else if (entry.isFile() && RECIPE_FILE.test(entry.name)) out.push(full);
  }
  return out;
}

/**
 * Validates every recipe file named by `paths` (see collectRecipeFiles); never throws for a bad file.
 * A file is valid without errors (and, with `strict`, without warnings).
 */
export async function validateFiles(paths: readonly string[], opts: ValidateOptions = {}): Promise<FileResult[]> {
  const results: FileResult[] = [];
  const calledPlans = new Map<string, Plan>();
  for (const file of await collectRecipeFiles(paths)) {
    const { diagnostics, warnings } = await loadRecipe(file, {
      calledPlans,
      ...(opts.catalog ? { catalog: opts.catalog } : {}),
    });
    const valid = diagnostics.length === 0 && (opts.strict !== true || warnings.length === 0);
    results.push({ file, valid, diagnostics: sortDiagnostics([...diagnostics, ...warnings]) });
  }
  return results;
}
