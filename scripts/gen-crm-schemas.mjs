#!/usr/bin/env node
// Writes the CRM connector's params/result JSON Schemas to schemas/connectors/crm/ from the entity
// table (src/service/connectors/crm/params-schemas.ts). Run after `npm run build`:
//   node scripts/gen-crm-schemas.mjs [dir-of-built-crm-module]
// test/service/crm/schema-files.test.ts fails when the files and the table disagree.
import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const moduleDir = resolve(process.argv[2] ?? join(root, 'dist', 'service', 'connectors', 'crm'));
/** @type {typeof import('../src/service/connectors/crm/params-schemas.js')} */
const { buildCrmActionSpecs, schemaFileName } = await import(pathToFileURL(join(moduleDir, 'params-schemas.js')).href);
const out = join(root, 'schemas', 'connectors', 'crm');
mkdirSync(out, { recursive: true });
for (const f of readdirSync(out)) if (f.endsWith('.json')) rmSync(join(out, f));
let n = 0;
for (const spec of buildCrmActionSpecs()) {
  for (const kind of /** @type {const} */ (['params', 'result'])) {
    writeFileSync(
      join(out, schemaFileName(spec.entity, spec.action, kind)),
      `${JSON.stringify(spec[kind], null, 2)}\n`,
    );
    n++;
  }
}
console.log(`wrote ${n} schema files to ${out}`);
