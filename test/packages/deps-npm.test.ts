import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../cli/cli-process.js';
import { tempDir, writeFiles } from './git-repos.js';
import { TinyRegistry } from './npm-registry.js';

/** `recipe deps` over npm: a registry protocol server on 127.0.0.1, real `npm` doing the fetching. */
const fixtures = new URL('../cli/fixtures/crm.yaml', import.meta.url).pathname;
const COUNT = (limit: number) => `version: 1
name: count-deals
connector: { definition: CRM }
steps:
  - id: deals
    paginate: { entity: deals, action: list, params: { limit: ${limit} } }
outputs:
  n: "\${ $count($deals) }"
`;

const registry = new TinyRegistry();
let root: string;
let env: Record<string, string>;

beforeAll(async () => {
  root = tempDir('recipe-npm-');
  env = {
    RECIPE_STORE: join(root, 'store'),
    CI: '',
    npm_config_cache: join(root, '.npm-cache'),
    npm_config_update_notifier: 'false',
  };
  registry.publish(root, '@acme/crm-recipes', '1.4.0', { 'count-by-stage.yaml': COUNT(100) });
  registry.publish(root, '@acme/crm-recipes', '1.4.2', { 'count-by-stage.yaml': COUNT(50) });
  registry.publish(root, '@acme/crm-recipes', '2.0.0', { 'count-by-stage.yaml': COUNT(10) });
  await registry.start();
}, 300_000);
afterAll(() => registry.close());

describe('recipe deps over npm', { timeout: 300_000 }, () => {
  it('install resolves the range with npm pack --ignore-scripts; runs read the store with zero registry requests', async () => {
    const project = join(root, 'project');
    writeFiles(project, {
      'main.yaml': `version: 1
name: main
connector: { definition: CRM }
steps:
  - id: counted
    call: npm:@acme/crm-recipes@^1.4/count-by-stage.yaml
outputs:
  n: "\${ $counted.n }"
`,
    });
    const r = await runCli(['deps', 'install', '-C', project, '--registry', registry.url], { cwd: project, env });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const lock = JSON.parse(readFileSync(join(project, 'recipe.lock'), 'utf8'));
    expect(lock.packages['npm:@acme/crm-recipes@^1.4']).toMatchObject({
      source: 'npm',
      name: '@acme/crm-recipes',
      range: '^1.4',
      version: '1.4.2',
      integrity: expect.stringMatching(/^sha512-/),
      hash: expect.stringMatching(/^h1:/),
      footprint: { reads: ['deals.list'], writes: [] },
    });
    const served = registry.requests;
    expect(served).toBeGreaterThan(0);
    const run = await runCli(['run', 'main.yaml', '--fixtures', fixtures, '--json'], { cwd: project, env });
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout).outputs).toEqual({ n: 3 });
    expect(registry.requests).toBe(served);
  });

  it("verify --online compares the registry's integrity with the lock: a version published again with other bytes is reported", async () => {
    const project = join(root, 'verify');
    writeFiles(project, {
      'main.yaml': `version: 1\nname: main\nsteps:\n  - call: npm:@acme/crm-recipes@2.0.0/count-by-stage.yaml\n`,
    });
    const deps = (...args: string[]) =>
      runCli(['deps', ...args, '-C', project, '--registry', registry.url], { cwd: project, env });
    expect((await deps('install')).code).toBe(0);
    const ok = await deps('verify', '--online');
    expect(ok.stdout, ok.stderr).toMatch(/^ok/);
    registry.publish(join(root, 'again'), '@acme/crm-recipes', '2.0.0', { 'count-by-stage.yaml': COUNT(11) });
    const r = await deps('verify', '--online', '--json');
    expect(r.code).toBe(1);
    expect(JSON.parse(r.stdout).problems).toEqual([
      expect.objectContaining({
        key: 'npm:@acme/crm-recipes@2.0.0',
        kind: 'republished',
        detail: expect.stringMatching(/integrity of @acme\/crm-recipes@2\.0\.0 is sha512-.*the lock says sha512-/),
      }),
    ]);
  });
});
