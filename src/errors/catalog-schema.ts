import type { CatalogEntry } from './types.js';

/** S: the recipe's structure against schemas/recipe.schema.json. Owned by src/schema/. */
export const schemaCodes = {
  S001: { template: '{message}', class: 'invalid' },
} satisfies Record<string, CatalogEntry>;
