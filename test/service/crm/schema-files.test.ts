import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { crmConnector } from '../../../src/service/connectors/crm/index.js';
import { buildCrmActionSpecs, schemaFileName } from '../../../src/service/connectors/crm/params-schemas.js';
import { crmSchemaDir } from '../../../src/service/connectors/crm/schema-files.js';

/** The spec's CRM action table. */
const SPEC_TABLE: Record<string, string[]> = {
  contacts: ['list', 'create', 'get', 'update', 'api_search', 'context_store_search'],
  companies: ['list', 'create', 'get', 'update', 'api_search', 'context_store_search'],
  deals: ['list', 'create', 'get', 'update', 'api_search', 'context_store_search'],
  tickets: ['list', 'create', 'get', 'update', 'api_search', 'context_store_search'],
  notes: ['list', 'create', 'get', 'update', 'delete', 'context_store_search'],
  calls: ['list', 'create', 'get', 'update', 'delete', 'context_store_search'],
  emails: ['list', 'create', 'get', 'update', 'delete', 'context_store_search'],
  meetings: ['list', 'create', 'get', 'update', 'delete', 'context_store_search'],
  tasks: ['list', 'create', 'get', 'update', 'delete', 'context_store_search'],
  schemas: ['list', 'get'],
  objects: ['list', 'get'],
  associations: ['list', 'create', 'delete'],
};

describe('CRM schema files', () => {
  it('declares exactly the spec action table', () => {
    const declared = crmConnector.actions.map((a) => `${a.entity}.${a.action}`).sort();
    const expected = Object.entries(SPEC_TABLE).flatMap(([e, actions]) => actions.map((a) => `${e}.${a}`)).sort();
    expect(declared).toEqual(expected);
  });

  it('has one params and one result file per action, equal to what the entity table generates (run scripts/gen-crm-schemas.mjs)', () => {
    const dir = crmSchemaDir();
    const specs = buildCrmActionSpecs();
    const expectedFiles = specs.flatMap((s) => [schemaFileName(s.entity, s.action, 'params'), schemaFileName(s.entity, s.action, 'result')]).sort();
    expect(readdirSync(dir).filter((f) => f.endsWith('.json')).sort()).toEqual(expectedFiles);
    for (const s of specs) {
      expect(JSON.parse(readFileSync(join(dir, schemaFileName(s.entity, s.action, 'params')), 'utf8'))).toEqual(s.params);
      expect(JSON.parse(readFileSync(join(dir, schemaFileName(s.entity, s.action, 'result')), 'utf8'))).toEqual(s.result);
    }
  });

  it('closes every params object and describes every param', () => {
    const walk = (schema: any, path: string) => {
      if (!schema || typeof schema !== 'object') return;
      if (schema.type === 'object' && schema.properties) {
        expect(schema.additionalProperties, `${path} additionalProperties`).toBe(false);
        for (const [name, sub] of Object.entries<any>(schema.properties)) {
          expect(typeof sub.description, `${path}.${name} description`).toBe('string');
          walk(sub, `${path}.${name}`);
        }
      }
      if (schema.items) walk(schema.items, `${path}[]`);
    };
    for (const a of crmConnector.actions) {
      if (a.action === 'context_store_search') continue;
      walk(a.paramsSchema, `${a.entity}.${a.action}`);
      expect(a.requiredParams.every((p) => (a.paramsSchema.required as string[]).includes(p))).toBe(true);
    }
  });
});
