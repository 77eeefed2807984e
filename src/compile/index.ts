/** compile/: a recipe file → a frozen Plan (plan.ts), with every problem in the file as a diagnostic. */
export { loadRecipe, type LoadOptions, type LoadResult } from './load-recipe.js';
export { resolveInputs, coerceInput, type ResolvedInputs } from './inputs.js';
export { STEP_KINDS, DEFAULTS } from './build-steps.js';
export type * from './plan.js';
export { validateFiles, collectRecipeFiles, type FileResult, type ValidateOptions } from './validate-files.js';
export { findRecipeFiles, type FoundFiles, type SkippedFile } from './find-recipes.js';
export { expressionHints } from './expression-hints.js';
export { callsConnector, footprintOf } from './footprint.js';
export { packageFootprint } from './package-footprint.js';
