import type { CatalogEntry } from './types.js';

/** S: the recipe's structure against schemas/recipe.schema.json. Owned by src/schema/. */
export const schemaCodes = {
  S001: { template: '{message}', class: 'invalid' },
  S002: { template: 'unknown step kind key "{key}"{hint}', class: 'invalid' },
  S003: { template: 'step has no kind key; add one of: {kinds}', class: 'invalid' },
  S004: { template: 'step has {count} kind keys: {keys}; a step has exactly one', class: 'invalid' },
  S005: { template: '{where}: missing required field "{field}"', class: 'invalid' },
  S006: { template: '{where}: unknown field "{field}"{hint}', class: 'invalid' },
  S007: { template: '{where}: expected {expected}, got {actual}', class: 'invalid' },
  S008: { template: '{where}: must be one of {allowed}, got {actual}', class: 'invalid' },
  S009: { template: '{where}: {rule}', class: 'invalid' },
  S010: {
    template: 'name must be kebab-case (lowercase letters, digits, single hyphens), got "{actual}"',
    class: 'invalid',
  },
  S011: {
    template: '{where}: give either "id" or "definition" (with an optional "workspace"), not both or neither',
    class: 'invalid',
  },
  S012: {
    template:
      '{where} takes {expected}, not an expression: write the value itself (docs/language.md lists the fields that take a literal only)',
    class: 'invalid',
  },
} satisfies Record<string, CatalogEntry>;
