/** `recipe docs` through the real CLI (dist/), and the examples it prints, each a step that validates. */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { embeddedCatalog, renderAction } from '../../src/catalog/index.js';
import { loadRecipe } from '../../src/compile/index.js';

const root = path.resolve(import.meta.dirname, '../..');

function recipe(...args: string[]) {
  const r = spawnSync(process.execPath, [path.join(root, 'bin/recipe.js'), 'docs', ...args], { encoding: 'utf8' });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe('recipe docs', () => {
  it('lists every connector type with its entities and actions', () => {
    const r = recipe();
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('CRM (connector: { definition: CRM })');
    expect(r.stdout).toMatch(/^ {2}deals +list, get, create, update, api_search, context_store_search$/m);
    expect(r.stdout).toMatch(/^ {2}files +list, get, create, download$/m);
  });

  it("ENTITY: the entity's actions, whether they write and how they page, its properties", () => {
    const r = recipe('deals');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(
      /^ {2}list +List deals in id order, paged with after\. \[reads; pages with params\.after/m,
    );
    expect(r.stdout).toMatch(/^ {2}create +Create a deal\. \[writes/m);
    expect(r.stdout).toContain('Properties create/update may set: dealname, amount,');
  });

  it('ENTITY.ACTION: params with required ones and allowed values, paging, writes, an example', () => {
    const r = recipe('tasks.create');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('Params (required: properties):');
    expect(r.stdout).toMatch(/properties\.hs_task_subject +string or number or boolean, required/);
    expect(r.stdout).toMatch(/properties\.hs_task_priority +string, one of: LOW, MEDIUM, HIGH/);
    expect(r.stdout).toContain('writes (--dry-run does not send it); does not page');
    expect(r.stdout).toContain('  tasks → deals      task_to_deal 216');
    expect(r.stdout).toContain('Example:\n  - id: tasks\n    execute:\n      entity: tasks\n      action: create');
    expect(recipe('deals.list').stdout).toContain('(limit is at most 50 when propertiesWithHistory is given)');
  });

  it('associations: the association type names and ids', () => {
    const r = recipe('associations');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^ {2}deals → companies +deal_to_company_unlabeled 341, deal_to_company 5 \(Primary\)$/m);
    expect(r.stdout).toContain('company_to_company_parent_company 13 (Parent Company)');
  });

  it('an unknown entity or action is exit 2 with a suggestion; --json gives the catalog entry', () => {
    const entity = recipe('contact');
    expect(entity.code).toBe(2);
    expect(entity.stderr).toContain(
      'A001 connector type CRM or Files has no entity "contact" (did you mean "contacts"?)',
    );
    const action = recipe('deals.search');
    expect(action.code).toBe(2);
    expect(action.stderr).toContain('(did you mean "api_search" or "context_store_search"?)');
    const json = JSON.parse(recipe('files.list', '--type', 'Files', '--json').stdout);
    expect(json).toMatchObject({ entity: 'files', action: 'list', write: false, paging: 'offset' });
    expect(recipe('files.list', '--type', 'Nope').code).toBe(2);
  });

  it("every action's example is a step that validates against the catalog", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'recipe-docs-'));
    const catalog = embeddedCatalog();
    for (const type of catalog.types)
      for (const entity of type.entities)
        for (const action of entity.actions) {
          const text = renderAction(type, action);
          const example = text.slice(text.indexOf('Example:\n') + 'Example:\n'.length);
          const file = path.join(dir, `${entity.name}.${action.action}.yaml`);
          writeFileSync(file, `version: 1\nname: example\nconnector: { definition: CRM }\nsteps:\n${example}`);
          const { diagnostics, warnings } = await loadRecipe(file, { catalog });
          expect(
            [...diagnostics, ...warnings].map((d) => `${d.code} ${d.message}`),
            `${entity.name}.${action.action}`,
          ).toEqual([]);
        }
  });
});
