import { readFileSync } from 'node:fs';
import type { ValidateFunction } from 'ajv/dist/2020.js';
import { dedupeDiagnostics, type Diagnostic } from '../errors/index.js';
import { makeDiagnostic, type Locator } from '../source/index.js';
import { newRecipeAjv } from './ajv-options.js';
import { at, describeNodeAt } from './describe.js';
import { jsonType, mapError } from './map-errors.js';

/** Where the recipe test schema lives: schemas/ at the package root (the same from src/schema and dist/schema). */
export const RECIPE_TEST_SCHEMA_URL = new URL('../../schemas/recipe-test.schema.json', import.meta.url);

let validator: Promise<ValidateFunction> | undefined;

/** The test-file validator, compiled once per process on first use (a small schema: a few ms). */
function testValidator(): Promise<ValidateFunction> {
  validator ??= (async () => {
    const ajv = await newRecipeAjv();
    return ajv.compile(JSON.parse(readFileSync(RECIPE_TEST_SCHEMA_URL, 'utf8')) as Record<string, unknown>);
  })();
  return validator;
}

const YAML_TYPES: Record<string, string> = {
  object: 'a map',
  array: 'a list',
  string: 'a string',
  boolean: 'true or false',
};

/**
 * Validates a test file's structure against schemas/recipe-test.schema.json, every problem at its YAML node
 * (the same S codes as recipes). Where a field takes one of several shapes (oneOf), only the errors of the shape
 * the value has are reported, or one "expected X or Y" when it has none of them.
 */
export async function validateTestDocument(value: unknown, locator: Locator, file: string): Promise<Diagnostic[]> {
  const validate = await testValidator();
  if (validate(value)) return [];
  const errors = validate.errors ?? [];
  const out: Diagnostic[] = [];
  for (const error of errors) {
    if (error.propertyName !== undefined) continue; // reported by the propertyNames error that follows it
    if (error.keyword === 'type' && error.schemaPath.includes('/oneOf/')) continue;
    if (error.keyword === 'oneOf') {
      const others = errors.some(
        (e) => e !== error && e.instancePath.startsWith(error.instancePath) && e.keyword !== 'type',
      );
      if (others) continue;
      const branches = (error.schema as { type?: string; $ref?: string }[] | undefined) ?? [];
      const expected = branches.map((b) => YAML_TYPES[b.type ?? (b.$ref ? 'object' : '')] ?? 'a list').join(' or ');
      out.push(
        makeDiagnostic(
          'S007',
          {
            where: describeNodeAt(value, error.instancePath),
            expected,
            actual: YAML_TYPES[jsonType(at(value, error.instancePath))] ?? jsonType(at(value, error.instancePath)),
          },
          { file, ...locator.locate(error.instancePath), pointer: error.instancePath },
        ),
      );
      continue;
    }
    const diagnostic = mapError(error, value, locator, file);
    if (diagnostic) out.push(diagnostic);
  }
  return dedupeDiagnostics(out);
}
