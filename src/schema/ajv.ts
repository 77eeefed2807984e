import { readFileSync } from 'node:fs';
import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';

// ajv-formats is CommonJS; under NodeNext its default export is the module object.
const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => void;

/** Where the recipe schema lives: schemas/ at the package root (the same from src/schema and dist/schema). */
export const RECIPE_SCHEMA_URL = new URL('../../schemas/recipe.schema.json', import.meta.url);

let schemaText: string | undefined;
let validator: ValidateFunction | undefined;

/** The recipe schema's text, as shipped. */
export function recipeSchemaText(): string {
  schemaText ??= readFileSync(RECIPE_SCHEMA_URL, 'utf8');
  return schemaText;
}

/** The recipe schema as a parsed object. */
export function recipeSchema(): Record<string, unknown> {
  return JSON.parse(recipeSchemaText()) as Record<string, unknown>;
}

/** The compiled validator, built once per process (compiling is the slow part). */
export function recipeValidator(): ValidateFunction {
  if (validator === undefined) {
    const ajv = new Ajv2020({ allErrors: true, verbose: true, strict: true, strictTypes: false, strictRequired: false });
    addFormats(ajv);
    validator = ajv.compile(recipeSchema());
  }
  return validator as ValidateFunction;
}

export type { ErrorObject };
