import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseSource } from '../../src/source/index.js';
import { KIND_KEYS, recipeSchema, validateRecipeDocument } from '../../src/schema/index.js';

const schemaFile = new URL('../../schemas/recipe.schema.json', import.meta.url);

function diagnose(text: string): string[] {
  const doc = parseSource(text, 'r.yaml');
  expect(doc.diagnostics).toEqual([]);
  return validateRecipeDocument(doc.value, doc.locator, 'r.yaml').map(
    (d) => `${d.line}:${d.column} ${d.code} ${d.message}`,
  );
}

/** Every subschema that declares `properties`, with its path. */
function propertyOwners(node: unknown, at = '#'): [string, Record<string, Record<string, unknown>>][] {
  if (node === null || typeof node !== 'object') return [];
  const out: [string, Record<string, Record<string, unknown>>][] = [];
  const obj = node as Record<string, unknown>;
  if (obj.properties && typeof obj.properties === 'object')
    out.push([at, obj.properties as Record<string, Record<string, unknown>>]);
  for (const [key, value] of Object.entries(obj)) out.push(...propertyOwners(value, `${at}/${key}`));
  return out;
}

describe('schemas/recipe.schema.json', () => {
  const schema = recipeSchema();

  it('is draft 2020-12 with an $id, and is the file the engine loads', () => {
    expect(schema.$schema).toBe('https://json-schema.org/draft/2020-12/schema');
    expect(typeof schema.$id).toBe('string');
    expect(schema).toEqual(JSON.parse(readFileSync(schemaFile, 'utf8')));
  });

  it('describes every property (editors show the descriptions)', () => {
    const defs = schema.$defs as Record<string, Record<string, unknown>>;
    const missing: string[] = [];
    for (const [at, properties] of propertyOwners(schema)) {
      for (const [name, sub] of Object.entries(properties)) {
        // a property that is only a $ref takes the description of its target
        const target = typeof sub.$ref === 'string' ? defs[sub.$ref.replace('#/$defs/', '')] : undefined;
        if (typeof sub.description !== 'string' && typeof target?.description !== 'string')
          missing.push(`${at}/${name}`);
      }
    }
    expect(missing).toEqual([]);
  });

  it('closes every step kind with the common fields and its own', () => {
    const defs = schema.$defs as Record<string, { properties: Record<string, unknown>; additionalProperties: boolean }>;
    for (const kind of KIND_KEYS) {
      const def = defs[`${kind}Step`];
      expect(def?.additionalProperties, kind).toBe(false);
      for (const common of ['id', 'when', 'retry', 'timeout_ms', 'on_error', 'connector', 'assign'])
        expect(Object.keys(def?.properties ?? {}), kind).toContain(common);
      expect(Object.keys(def?.properties ?? {})).toContain(kind);
    }
  });
});

describe('validateRecipeDocument', () => {
  const head = 'version: 1\nname: r\n';

  it('accepts a valid document', () => {
    expect(
      diagnose(
        `${head}steps:\n  - execute: { entity: deals, action: list, params: { limit: 5 } }\n    retry: { max_attempts: 2 }\n`,
      ),
    ).toEqual([]);
  });

  it('names an unknown kind key once, with a suggestion, instead of every branch', () => {
    expect(diagnose(`${head}steps:\n  - exectue: { entity: deals }\n`)).toEqual([
      '4:5 S002 unknown step kind key "exectue" (did you mean "execute"?)',
    ]);
    expect(diagnose(`${head}steps:\n  - frobnicate: 1\n`)[0]).toMatch(
      /^4:5 S002 unknown step kind key "frobnicate"; a step needs one of/,
    );
  });

  it('says when a step has two kind keys, or none', () => {
    expect(diagnose(`${head}steps:\n  - log: a\n    fail: b\n`)).toEqual([
      '5:5 S004 step has 2 kind keys: log and fail; a step has exactly one',
    ]);
    expect(diagnose(`${head}steps:\n  - id: x\n`).map((l) => l.slice(0, 9))).toEqual(['4:5 S003 ']);
  });

  it('reports the missing field of the step kind that is there, and nothing about other kinds', () => {
    expect(diagnose(`${head}steps:\n  - paginate: { entity: deals }\n`)).toEqual([
      '4:5 S005 paginate: missing required field "action"',
    ]);
  });

  it('suggests the closest field for an unknown one, in nested steps too', () => {
    expect(diagnose(`${head}steps:\n  - foreach: [1]\n    steps:\n      - log: x\n        whne: true\n`)).toEqual([
      '7:9 S006 log step: unknown field "whne" (did you mean "when"?)',
    ]);
  });

  it('reports wrong types, enums and patterns at the value', () => {
    expect(diagnose(`version: "1"\nname: My-Recipe\nsteps:\n  - log: a\n    timeout_ms: soon\n`)).toEqual([
      '1:10 S008 version: must be one of 1, got "1"',
      '2:7 S010 name must be kebab-case (lowercase letters, digits, single hyphens), got "My-Recipe"',
      '5:17 S007 timeout_ms: expected an integer, got a string',
    ]);
  });
});
