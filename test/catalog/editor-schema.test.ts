/**
 * schemas/recipe.connectors.schema.json, the companion schema editors use for connector calls: in step
 * with schemas/ (the recipe schema and the connector catalog), accepting every valid recipe, and flagging
 * the connector mistakes a newcomer makes as the YAML language server would show them.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { editorSchema, embeddedCatalog } from '../../src/catalog/index.js';

const root = path.resolve(import.meta.dirname, '../..');
const read = (p: string) => JSON.parse(readFileSync(path.join(root, p), 'utf8')) as Record<string, unknown>;
const companion = read('schemas/recipe.connectors.schema.json');
const validate = new Ajv2020({ allErrors: true, strict: false }).compile(companion);

function errorsOf(yaml: string): string[] {
  if (validate(parse(yaml, { merge: true }))) return [];
  return (validate.errors ?? []).map((e) => `${e.instancePath} ${e.message ?? ''}`);
}

const recipe = (step: string) => `version: 1\nname: x\nconnector: { definition: CRM }\nsteps:\n  - ${step}\n`;

describe('recipe.connectors.schema.json', () => {
  it('is what the recipe schema and the connector catalog generate (run npm run build && node scripts/gen-editor-schema.mjs)', () => {
    expect(companion).toEqual(editorSchema(read('schemas/recipe.schema.json'), embeddedCatalog()));
  });

  it('accepts every shipped recipe and every valid golden case', () => {
    const files = [
      ...readdirSync(path.join(root, 'recipes'), { recursive: true, encoding: 'utf8' }).map((f) =>
        path.join('recipes', f),
      ),
      ...readdirSync(path.join(root, 'test/golden/valid')).map((f) => path.join('test/golden/valid', f)),
      ...readdirSync(path.join(root, 'test/golden/warnings')).map((f) => path.join('test/golden/warnings', f)),
      // recipes/*.test.yaml and *.fixtures.yaml are `recipe test` files and their data, not recipes.
    ].filter((f) => f.endsWith('.yaml') && !/\.(test|fixtures)\.yaml$/.test(f));
    expect(files.length).toBeGreaterThan(10);
    for (const f of files) expect(errorsOf(readFileSync(path.join(root, f), 'utf8')), f).toEqual([]);
  });

  it('offers the entities, the actions of an entity and the params of an action', () => {
    const defs = companion.$defs as Record<string, any>;
    const calls = defs.connector_calls;
    expect(calls.properties.entity.enum).toContain('contacts');
    expect(calls.properties.entity.enum).toContain('folders');
    const dealsActions = calls.allOf.find(
      (r: any) => r.if.properties.entity.const === 'deals' && !r.if.properties.action,
    );
    expect(dealsActions.then.properties.action.enum).toEqual([
      'list',
      'get',
      'create',
      'update',
      'api_search',
      'context_store_search',
    ]);
    expect(defs.connector_downloads.properties.entity.enum).toEqual(['files']);
    const priority = defs.params_crm_tasks_create.properties.properties.properties.hs_task_priority;
    expect(priority.anyOf[0].enum).toEqual(['LOW', 'MEDIUM', 'HIGH']);
    expect(defs.params_crm_tasks_create.description).toBe('tasks.create: Create a task. (writes)');
    expect(defs.executeStep.properties.execute.properties.action.description).not.toContain('search.');
  });

  it('leaves alone the calls whose connector type it cannot know', () => {
    const unknown = (connector: string, step: string) =>
      errorsOf(`version: 1\nname: x\n${connector}steps:\n  - ${step}\n`);
    const bad = 'execute: { entity: contact, action: search }';
    expect(unknown('connector: { id: c-1 }\n', bad)).toEqual([]);
    expect(unknown('', bad)).toEqual([]);
    expect(unknown('connector: { definition: Salesforce }\n', bad)).toEqual([]);
    expect(unknown('connector: { definition: crm }\n', `${bad}\n    connector: { id: c-1 }`)).toEqual([]);
    // a step's own known connector is checked even in a recipe without one
    expect(unknown('', `${bad}\n    connector: { definition: CRM }`)).not.toEqual([]);
  });

  it("flags the newcomer's connector mistakes", () => {
    expect(errorsOf(recipe('execute: { entity: contact, action: get }'))).not.toEqual([]);
    expect(errorsOf(recipe('execute: { entity: deals, action: search }'))).not.toEqual([]);
    expect(errorsOf(recipe('execute: { entity: contacts, action: get, params: { id: "1" } }'))).not.toEqual([]);
    expect(
      errorsOf(recipe('execute: { entity: tasks, action: create, params: { properties: { hs_task_title: x } } }')),
    ).not.toEqual([]);
    expect(
      errorsOf(
        recipe(
          'execute: { entity: tasks, action: create, params: { properties: { hs_task_subject: x, hs_task_priority: URGENT } } }',
        ),
      ),
    ).not.toEqual([]);
    // an expression is fine wherever a value goes
    expect(
      errorsOf(
        recipe(
          'execute: { entity: tasks, action: create, params: { properties: { hs_task_subject: x, hs_task_priority: "${ $p }" } } }',
        ),
      ),
    ).toEqual([]);
  });
});
