import { readFileSync } from 'node:fs';
import { newRecipeAjv } from './ajv-options.js';

/** Where the trigger file schema lives: schemas/ at the package root (the same from src/schema and dist/schema). */
export const TRIGGER_SCHEMA_URL = new URL('../../schemas/trigger.schema.json', import.meta.url);

/** One problem of a value against a JSON Schema: the JSON pointer of the field, and what is wrong. */
export interface SchemaProblem {
  readonly pointer: string;
  readonly message: string;
}

/** A compiled check of values against one JSON Schema. */
export type SchemaCheck = (value: unknown) => SchemaProblem[];

/**
 * Compiles a JSON Schema written by a user (a trigger's payload schema) into a check that lists every problem.
 * Not strict: such schemas carry keywords ajv does not know (examples, x-...), which must not refuse them.
 * Throws with ajv's message when the schema itself is invalid.
 */
export async function compileJsonSchema(schema: Record<string, unknown>): Promise<SchemaCheck> {
  const ajv = await newRecipeAjv({ strict: false, verbose: false });
  const validate = ajv.compile(schema);
  return (value) => {
    if (validate(value)) return [];
    return (validate.errors ?? []).map((e) => {
      const missing = e.keyword === 'required' ? (e.params as { missingProperty?: string }).missingProperty : undefined;
      const extra =
        e.keyword === 'additionalProperties'
          ? (e.params as { additionalProperty?: string }).additionalProperty
          : undefined;
      const name = missing ?? extra;
      const pointer =
        name === undefined ? e.instancePath : `${e.instancePath}/${name.replace(/~/g, '~0').replace(/\//g, '~1')}`;
      return { pointer: pointer === '' ? '/' : pointer, message: e.message ?? 'invalid' };
    });
  };
}

/** Compiles the check of a trigger file against schemas/trigger.schema.json (once per loadTriggers). */
export function triggerFileCheck(): Promise<SchemaCheck> {
  return compileJsonSchema(JSON.parse(readFileSync(TRIGGER_SCHEMA_URL, 'utf8')) as Record<string, unknown>);
}
