import type { ConnectorCatalog } from '../catalog/index.js';
import type { Diagnostic } from '../errors/index.js';
import { sortDiagnostics } from '../source/index.js';
import { findRecipeFiles, type SkippedFile } from './find-recipes.js';
import { loadRecipe } from './load-recipe.js';
import type { Plan } from './plan.js';

/** The outcome of validating one file: its errors and warnings (severity tells them apart), in file order. */
export interface FileResult {
  readonly file: string;
  readonly valid: boolean;
  readonly diagnostics: Diagnostic[];
}

/** How to validate: the connector catalog to check calls against, whether warnings fail a file, and who hears of skipped files. */
export interface ValidateOptions {
  readonly catalog?: ConnectorCatalog;
  readonly strict?: boolean;
  readonly onSkip?: (skipped: SkippedFile) => void;
}

/**
 * The recipe files named by `paths` (see findRecipeFiles: folders are walked for *.yaml and *.yml, skipping
 * what is not a recipe), sorted for stable output.
 */
export async function collectRecipeFiles(paths: readonly string[]): Promise<string[]> {
  return (await findRecipeFiles(paths)).recipes;
}

/**
 * Validates every recipe file named by `paths` (see collectRecipeFiles); never throws for a bad file.
 * A file is valid without errors (and, with `strict`, without warnings).
 */
export async function validateFiles(paths: readonly string[], opts: ValidateOptions = {}): Promise<FileResult[]> {
  const results: FileResult[] = [];
  const calledPlans = new Map<string, Plan>();
  const found = await findRecipeFiles(paths);
  for (const skipped of found.skipped) opts.onSkip?.(skipped);
  for (const file of found.recipes) {
    const { diagnostics, warnings } = await loadRecipe(file, {
      calledPlans,
      ...(opts.catalog ? { catalog: opts.catalog } : {}),
    });
    const valid = diagnostics.length === 0 && (opts.strict !== true || warnings.length === 0);
    results.push({ file, valid, diagnostics: sortDiagnostics([...diagnostics, ...warnings]) });
  }
  return results;
}
