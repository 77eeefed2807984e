import type { Ajv2020, Options } from 'ajv/dist/2020.js';

/** The ajv options of the recipe validator: shared by the runtime compile and scripts/build-schema-validator.mjs. */
export const RECIPE_AJV_OPTIONS = Object.freeze({
  allErrors: true,
  verbose: true,
  strict: true,
  strictTypes: false,
  strictRequired: false,
} as const);

/**
 * The engine's one ajv factory: draft 2020-12 with RECIPE_AJV_OPTIONS (plus `extra`) and ajv-formats, for the
 * recipe schema, the test-file schema and the build's precompiled validator. Loads ajv only when called.
 */
export async function newRecipeAjv(extra: Options = {}): Promise<Ajv2020> {
  const [{ Ajv2020 }, addFormatsModule] = await Promise.all([import('ajv/dist/2020.js'), import('ajv-formats')]);
  // ajv-formats is CommonJS; under NodeNext its default export is the module object.
  const addFormats = addFormatsModule.default as unknown as (ajv: Ajv2020) => void;
  const ajv = new Ajv2020({ ...RECIPE_AJV_OPTIONS, ...extra });
  addFormats(ajv);
  return ajv;
}
