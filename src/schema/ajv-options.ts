/** The ajv options of the recipe validator: shared by the runtime compile and scripts/build-schema-validator.mjs. */
export const RECIPE_AJV_OPTIONS = Object.freeze({
  allErrors: true,
  verbose: true,
  strict: true,
  strictTypes: false,
  strictRequired: false,
} as const);
