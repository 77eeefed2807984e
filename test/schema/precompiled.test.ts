/**
 * The validator that `npm run build` precompiles into dist/schema/recipe-validator.js
 * (scripts/build-schema-validator.mjs) must report exactly what compiling schemas/recipe.schema.json at run
 * time reports, on every golden recipe (valid and invalid) and the shipped ones: same verdict, same errors.
 * Needs `npm run build` first (npm test runs it).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parseSource } from '../../src/source/index.js';
import { compileRecipeValidator } from '../../src/schema/ajv.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.join(here, '../..');
const precompiledPath = path.join(root, 'dist/schema/recipe-validator.js');

function yamlFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return yamlFiles(p);
    return e.name.endsWith('.yaml') ? [p] : [];
  });
}

const files = [...yamlFiles(path.join(root, 'test/golden')), ...yamlFiles(path.join(root, 'recipes'))].sort();

describe('precompiled recipe validator (dist/schema/recipe-validator.js)', () => {
  it('exists after npm run build and is generated from the schema file', () => {
    expect(existsSync(precompiledPath), 'run `npm run build` first').toBe(true);
    expect(readFileSync(precompiledPath, 'utf8')).toContain('"$id":"urn:recipe:schema:recipe:1"');
  });

  it('gives the same verdict and the same errors as compiling the schema at run time', async () => {
    const runtime = await compileRecipeValidator();
    const precompiled = ((await import(precompiledPath)) as { default: typeof runtime }).default;
    expect(files.length).toBeGreaterThan(80);
    let invalid = 0;
    for (const file of files) {
      const doc = parseSource(readFileSync(file, 'utf8'), file);
      const a = runtime(doc.value);
      const errorsA = structuredClone(runtime.errors ?? null);
      const b = precompiled(doc.value);
      expect(b, file).toBe(a);
      expect(structuredClone(precompiled.errors ?? null), file).toEqual(errorsA);
      if (!a) invalid += 1;
    }
    // the comparison covered failing documents, not only valid ones
    expect(invalid).toBeGreaterThan(20);
  });
});
