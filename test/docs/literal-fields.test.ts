/**
 * docs/language.md "Fields that take a literal only" lists every field of the recipe language whose value
 * the schema types as a number, integer or boolean with no string alternative (where a `${ }` is S012).
 * Read from schemas/recipe.schema.json, so a field added there without a line in the docs fails here.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from './doc-examples.js';

type Schema = {
  $ref?: string;
  type?: string | string[];
  const?: unknown;
  enum?: unknown[];
  properties?: Record<string, Schema>;
  items?: Schema;
  additionalProperties?: Schema | boolean;
  oneOf?: Schema[];
  anyOf?: Schema[];
  allOf?: Schema[];
  then?: Schema;
  else?: Schema;
  $defs?: Record<string, Schema>;
};

const schema = JSON.parse(readFileSync(join(ROOT, 'schemas/recipe.schema.json'), 'utf8')) as Schema;
const defs = schema.$defs ?? {};
const deref = (s: Schema): Schema => (s.$ref ? deref(defs[s.$ref.split('/').pop() as string] as Schema) : s);

function typesOf(s: Schema): string[] {
  const d = deref(s);
  if (d.type !== undefined) return [d.type].flat();
  const alternatives = [...(d.oneOf ?? []), ...(d.anyOf ?? [])];
  if (alternatives.length > 0) return alternatives.flatMap(typesOf);
  if (d.const !== undefined) return [typeof d.const];
  return [...new Set((d.enum ?? []).map((v) => typeof v))];
}

/** Names of literal-only fields, found by walking the schema from its root (each definition once). */
function literalFields(): Set<string> {
  const found = new Set<string>();
  const seen = new Set<Schema>();
  const walk = (node: Schema | undefined) => {
    if (node === undefined) return;
    const d = deref(node);
    if (seen.has(d)) return;
    seen.add(d);
    for (const alt of [...(d.oneOf ?? []), ...(d.anyOf ?? []), ...(d.allOf ?? [])]) walk(alt);
    walk(d.then);
    walk(d.else);
    for (const [key, member] of Object.entries(d.properties ?? {})) {
      const types = typesOf(member);
      if (types.some((t) => ['integer', 'number', 'boolean'].includes(t)) && !types.includes('string')) found.add(key);
      walk(member);
    }
    walk(d.items);
    if (typeof d.additionalProperties === 'object') walk(d.additionalProperties);
  };
  walk(schema);
  return found;
}

describe('docs/language.md: fields that take a literal only', () => {
  const doc = readFileSync(join(ROOT, 'docs/language.md'), 'utf8');
  const start = doc.indexOf('### Fields that take a literal only');
  const section = doc.slice(start, doc.indexOf('\n#', start + 10));

  it('lists every field the schema takes as a number, integer or boolean only', () => {
    const fields = literalFields();
    expect([...fields]).toEqual(expect.arrayContaining(['max_items', 'max_pages', 'timeout_ms', 'concurrency']));
    // `max_items`, or the last part of a dotted one: `inputs.<name>.required`.
    const missing = [...fields].filter((f) => !new RegExp(`[\`.]${f}\``).test(section));
    expect(missing).toEqual([]);
  });
});
