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
    const expected = Object.entries(SPEC_TABLE)
      .flatMap(([e, actions]) => actions.map((a) => `${e}.${a}`))
      .sort();
    expect(declared).toEqual(expected);
  });

  it('has one params and one result file per action, equal to what the entity table generates (run scripts/gen-crm-schemas.mjs)', () => {
    const dir = crmSchemaDir();
    const specs = buildCrmActionSpecs();
    const expectedFiles = specs
      .flatMap((s) => [schemaFileName(s.entity, s.action, 'params'), schemaFileName(s.entity, s.action, 'result')])
      .sort();
    expect(
      readdirSync(dir)
        .filter((f) => f.endsWith('.json'))
        .sort(),
    ).toEqual(expectedFiles);
    for (const s of specs) {
      expect(JSON.parse(readFileSync(join(dir, schemaFileName(s.entity, s.action, 'params')), 'utf8'))).toEqual(
        s.params,
      );
      expect(JSON.parse(readFileSync(join(dir, schemaFileName(s.entity, s.action, 'result')), 'utf8'))).toEqual(
        s.result,
      );
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

describe('CRM results match their result schemas', () => {
  it('validates the answers of every kind of action', async () => {
    const { compileSchema } = await import('../../../src/service/core/params-validator.js');
    const { crmHarness, directContext } = await import('./crm-helpers.js');
    const h = await crmHarness();
    try {
      await crmConnector.seedDemo!(directContext(h), { size: 20, seed: 3 });
      const schemaId = (await h.ok('schemas', 'list', {})).result[0].objectTypeId;
      const vehicle = (await h.ok('objects', 'list', { objectType: schemaId })).result[0].id;
      const contact = (await h.ok('contacts', 'list', { limit: 1 })).result[0].id;
      const company = (await h.ok('companies', 'list', { limit: 1 })).result[0].id;
      const note = (await h.ok('notes', 'create', { properties: { hs_note_body: 'x' } })).result.id;
      const calls: [string, string, Record<string, unknown>][] = [
        ['contacts', 'list', { associations: 'companies', propertiesWithHistory: 'email' }],
        ['contacts', 'get', { contactId: contact, properties: 'email,phone' }],
        ['contacts', 'create', { properties: { email: 'schema@x.example' } }],
        ['contacts', 'update', { contactId: contact, properties: { firstname: 'S' } }],
        ['contacts', 'api_search', { query: 'a', limit: 3 }],
        ['notes', 'delete', { noteId: note }],
        ['notes', 'list', { archived: true }],
        ['schemas', 'list', {}],
        ['schemas', 'get', { objectType: schemaId }],
        ['objects', 'list', { objectType: schemaId, associations: 'contacts' }],
        ['objects', 'get', { objectType: schemaId, objectId: vehicle }],
        ['associations', 'list', { fromObjectType: 'contacts', fromObjectId: contact, toObjectType: 'companies' }],
        [
          'associations',
          'create',
          {
            associationCategory: 'PLATFORM_DEFINED',
            associationTypeId: 279,
            fromObjectType: 'contacts',
            fromObjectId: contact,
            toObjectType: 'companies',
            toObjectId: company,
          },
        ],
        [
          'associations',
          'delete',
          { fromObjectType: 'contacts', fromObjectId: contact, toObjectType: 'companies', toObjectId: company },
        ],
      ];
      for (const [entity, action, params] of calls) {
        const out = await h.ok(entity, action, params);
        const descriptor = crmConnector.actions.find((a) => a.entity === entity && a.action === action)!;
        const validate = compileSchema(descriptor.resultSchema!);
        expect(validate(out.result), `${entity}.${action}: ${JSON.stringify(validate.errors)}`).toBe(true);
      }
    } finally {
      await h.close();
    }
  });
});
