import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import type { ErrorObject, ValidateFunction } from 'ajv/dist/2020.js';
import { newRecipeAjv } from './ajv-options.js';

/** Where the recipe schema lives: schemas/ at the package root (the same from src/schema and dist/schema). */
export const RECIPE_SCHEMA_URL = new URL('../../schemas/recipe.schema.json', import.meta.url);

/**
 * The validator precompiled from the schema by scripts/build-schema-validator.mjs (`npm run build`), next to this
 * module in dist/. Compiling the schema with ajv took 250–450 ms of every run; loading the generated code does not.
 * Running from src/ (tests) it is absent, and the schema is compiled at first use with the same options.
 */
// Through ../schema/, so that the CLI's bundle (dist/bin/, scripts/build-cli-bundle.mjs) finds it too.
const PRECOMPILED_URL = new URL('../schema/recipe-validator.js', import.meta.url);

let schemaText: string | undefined;
let validator: ValidateFunction | undefined = await loadPrecompiled();

/** The precompiled validator, unless it is missing or was built from another version of the schema. */
async function loadPrecompiled(): Promise<ValidateFunction | undefined> {
  if (!existsSync(PRECOMPILED_URL)) return undefined;
  const mod = (await import(PRECOMPILED_URL.href)) as { default: ValidateFunction; schemaSha256?: string };
  const shipped = createHash('sha256').update(recipeSchemaText()).digest('hex');
  return mod.schemaSha256 === shipped ? mod.default : undefined;
}

/** The recipe schema's text, as shipped. */
export function recipeSchemaText(): string {
  schemaText ??= readFileSync(RECIPE_SCHEMA_URL, 'utf8');
  return schemaText;
}

/** The recipe schema as a parsed object. */
export function recipeSchema(): Record<string, unknown> {
  return JSON.parse(recipeSchemaText()) as Record<string, unknown>;
}

/** Compiles the schema with ajv now (what the build precompiles); loads ajv only when called. */
export async function compileRecipeValidator(): Promise<ValidateFunction> {
  const ajv = await newRecipeAjv();
  return ajv.compile(recipeSchema());
}

// Without the precompiled module, compile once at load so validation stays synchronous.
validator ??= await compileRecipeValidator();

/** The validator: precompiled by the build, or compiled once per process. */
export function recipeValidator(): ValidateFunction {
  return validator as ValidateFunction;
}

export type { ErrorObject };
