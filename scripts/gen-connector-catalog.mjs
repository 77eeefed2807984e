#!/usr/bin/env node
// Writes schemas/connectors/catalog.json: every connector type of the embedded service with its actions
// (summary, write, limits), the CRM's property lists and association types. The engine's connector catalog
// (src/catalog/) reads it offline, with the params schemas beside it.
// Run after `npm run build` (it reads dist/): node scripts/gen-connector-catalog.mjs
// test/catalog/data-files.test.ts fails when the file and the service disagree.
import { writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const dist = join(root, 'dist', 'service', 'connectors');
/** @type {typeof import('../src/service/connectors/registry.js')} */
const { connectorTypes } = await import(pathToFileURL(join(dist, 'registry.js')).href);
/** @type {typeof import('../src/service/connectors/catalog-data.js')} */
const { catalogDataFile } = await import(pathToFileURL(join(dist, 'catalog-data.js')).href);
/** @type {typeof import('../src/service/connectors/crm/catalog-data.js')} */
const { crmDataExtras } = await import(pathToFileURL(join(dist, 'crm', 'catalog-data.js')).href);

const file = join(root, 'schemas', 'connectors', 'catalog.json');
const data = catalogDataFile(connectorTypes, (t) => (t.definition.slug === 'crm' ? crmDataExtras() : {}));
writeFileSync(file, `${JSON.stringify(data, null, 2)}\n`);
console.log(`wrote ${file}`);
