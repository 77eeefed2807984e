import type { Diagnostic } from '../errors/index.js';
import { findRecipeFiles, type SkippedFile } from './find-recipes.js';
import { loadRecipe } from './load-recipe.js';
import type { Plan } from './plan.js';

/** The outcome of validating one file. */
export interface FileResult {
  readonly file: string;
  readonly valid: boolean;
  readonly diagnostics: Diagnostic[];
}

/**
 * The recipe files named by `paths` (see findRecipeFiles: folders are walked for *.yaml and *.yml, skipping
 * what is not a recipe), sorted for stable output.
 */
export async function collectRecipeFiles(paths: readonly string[]): Promise<string[]> {
  return (await findRecipeFiles(paths)).recipes;
}

/** Validates every recipe file named by `paths` (see collectRecipeFiles); never throws for a bad file. */
export async function validateFiles(
  paths: readonly string[],
  opts: { onSkip?: (skipped: SkippedFile) => void } = {},
): Promise<FileResult[]> {
  const results: FileResult[] = [];
  const calledPlans = new Map<string, Plan>();
  const found = await findRecipeFiles(paths);
  for (const skipped of found.skipped) opts.onSkip?.(skipped);
  for (const file of found.recipes) {
    const { diagnostics } = await loadRecipe(file, { calledPlans });
    results.push({ file, valid: diagnostics.length === 0, diagnostics });
  }
  return results;
}
