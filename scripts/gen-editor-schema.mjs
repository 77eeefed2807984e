#!/usr/bin/env node
// Writes schemas/recipe.connectors.schema.json: the recipe schema plus the embedded connector types'
// entities, actions and params, for the YAML language server (completion and descriptions of connector calls).
// Run after `npm run build` (it reads dist/): node scripts/gen-editor-schema.mjs
// test/catalog/editor-schema.test.ts fails when the file is out of step with schemas/.
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
/** @type {typeof import('../src/catalog/index.js')} */
const { editorSchema, embeddedCatalog } = await import(pathToFileURL(join(root, 'dist', 'catalog', 'index.js')).href);

const recipeSchema = JSON.parse(readFileSync(join(root, 'schemas', 'recipe.schema.json'), 'utf8'));
const file = join(root, 'schemas', 'recipe.connectors.schema.json');
writeFileSync(file, `${JSON.stringify(editorSchema(recipeSchema, embeddedCatalog()), null, 2)}\n`);
console.log(`wrote ${file}`);
