import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadRecipe } from '../../src/compile/index.js';
import { runPlan } from '../../src/run/index.js';
import { startService, type RunningService } from '../../src/service/start.js';
import { runCli } from '../cli/cli-process.js';
import { testClient } from '../run/helpers.js';
import { startCountingProxy, type CountingProxy } from './counting-proxy.js';
import { Library, tempDir, writeFiles } from './git-repos.js';

/** Capabilities: a package call may only write what its `allow:` grants, narrowed down the chain. */
const fixtures = new URL('../cli/fixtures/crm.yaml', import.meta.url).pathname;

const NOTE = `version: 1
name: add-note
connector: { definition: CRM }
steps:
  - id: deals
    paginate: { entity: deals, action: list, params: { limit: 10 } }
  - id: note
    execute: { entity: notes, action: create, params: { properties: { hs_note_body: "from C" } } }
outputs:
  id: "\${ $note.id }"
`;

let root: string;
let env: Record<string, string>;
let c: Library;
let b: Library;

beforeAll(() => {
  root = tempDir();
  env = { RECIPE_STORE: join(root, 'store'), CI: '' };
  // C: a platform repository's recipe that writes a note.
  c = new Library(root, 'platform');
  c.commit({ 'notes/add.yaml': NOTE });
  c.tag('v1.0.0');
  // B: another repository's recipe that calls C and grants it notes.create.
  b = new Library(root, 'team');
  b.commit({
    'crm/wrap.yaml': `version: 1
name: wrap
steps:
  - id: added
    call: git:${c.url}//notes/add.yaml@v1.0.0
    allow:
      writes: [{ entity: notes, actions: [create] }]
outputs:
  id: "\${ $added.id }"
`,
  });
  b.tag('v2.0.0');
}, 120_000);

const install = (project: string) => runCli(['deps', 'install', '-C', project], { cwd: project, env });

describe('allow: grants', { timeout: 300_000 }, () => {
  it('validate reports a write beyond the grant at the call: line; granting it makes the recipe valid and the write goes through', async () => {
    const project = join(root, 'direct');
    const call = `    call: git:${c.url}//notes/add.yaml@v1.0.0\n`;
    writeFiles(project, {
      'main.yaml': `version: 1\nname: direct\nconnector: { definition: CRM }\nsteps:\n  - id: n\n${call}`,
    });
    expect((await install(project)).code).toBe(0);
    const r = await runCli(['validate', 'main.yaml'], { cwd: project, env });
    expect(r.code).toBe(2);
    expect(r.stdout + r.stderr).toMatch(
      /main\.yaml:6:11.*P030.*writes notes\.create, which its allow: does not grant/s,
    );

    writeFiles(project, {
      'main.yaml': `version: 1\nname: direct\nconnector: { definition: CRM }\nsteps:\n  - id: n\n${call}    allow: { writes: [{ entity: notes, actions: [create] }], max_writes: 1 }\noutputs:\n  id: "\${ $n.id }"\n`,
    });
    expect((await runCli(['validate', 'main.yaml'], { cwd: project, env })).code).toBe(0);
    const run = await runCli(['run', 'main.yaml', '--fixtures', fixtures, '--json'], { cwd: project, env });
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout).outputs.id).toBeTruthy();
  });

  it("a package sees a secret only through allow.secrets, filled from the caller's own secret", async () => {
    const lib = new Library(root, 'secrets');
    lib.commit({
      'hook.yaml': `version: 1\nname: hook\nsecrets: [HOOK]\nsteps:\n  - log: "token of \${ $length($secrets.HOOK) } characters"\noutputs:\n  len: "\${ $length($secrets.HOOK) }"\n`,
    });
    lib.tag('v1.0.0');
    const project = join(root, 'secrets-project');
    const caller = (allow: string) =>
      `version: 1\nname: caller\nsecrets: [TEAM_HOOK]\nsteps:\n  - id: h\n    call: git:${lib.url}//hook.yaml@v1.0.0\n${allow}outputs:\n  len: "\${ $h.len }"\n`;
    writeFiles(project, { 'main.yaml': caller('') });
    expect((await install(project)).code).toBe(0);
    const refused = await runCli(['validate', 'main.yaml'], { cwd: project, env });
    expect(refused.code).toBe(2);
    expect(refused.stdout + refused.stderr).toMatch(/main\.yaml:6:11.*P032.*declares secret HOOK/s);

    writeFiles(project, { 'main.yaml': caller('    allow: { secrets: { HOOK: TEAM_HOOK } }\n') });
    const run = await runCli(['run', 'main.yaml', '--fixtures', fixtures, '--json'], {
      cwd: project,
      // HOOK itself is set too: the package must not read it from the environment.
      env: { ...env, TEAM_HOOK: 'abcdef', HOOK: 'not-this-one-at-all' },
    });
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout).outputs).toEqual({ len: 6 });
  });

  describe('a three-level chain A → B → C from two repositories', () => {
    let service: RunningService;
    let proxy: CountingProxy;
    let project: string;
    beforeAll(async () => {
      service = await startService({ fixtures, logLevel: 'silent' });
      proxy = await startCountingProxy(service.url);
      project = join(root, 'chain');
      // A grants B deals.update only: C's notes.create, granted by B, is not granted by A.
      writeFiles(project, {
        'main.yaml': `version: 1
name: chain
connector: { definition: CRM }
steps:
  - id: wrapped
    call: { git: "${b.url}", ref: v2.0.0, path: crm/wrap.yaml }
    allow:
      writes: [{ entity: deals, actions: [update] }]
`,
      });
      expect((await install(project)).code).toBe(0);
    }, 300_000);
    afterAll(async () => {
      await proxy.close();
      await service.close();
    });

    it("validate reports at A's call: line the write that C may do under B's grant but not under A's", async () => {
      const r = await runCli(['validate', 'main.yaml'], { cwd: project, env });
      expect(r.code).toBe(2);
      expect(r.stdout + r.stderr).toMatch(/main\.yaml:6:11.*P030.*notes\.create.*granted: deals\.update/s);
    });

    it('with validation bypassed, the run refuses the write before sending it: zero notes.create at the service', async () => {
      const saved = process.env.RECIPE_STORE;
      process.env.RECIPE_STORE = env.RECIPE_STORE;
      try {
        const { plan, diagnostics } = await loadRecipe(join(project, 'main.yaml'), { checkGrants: false });
        expect(diagnostics).toEqual([]);
        const client = testClient(proxy.url, service.credentials);
        const report = await runPlan(plan!, {
          client,
          redactor: client.redactor,
          sleep: async () => undefined,
          cwd: project,
          log: () => undefined,
          inputs: {},
        });
        expect(report.status).toBe('failed');
        expect(report.error).toMatchObject({ code: 'P033' });
        expect(report.error?.message).toMatch(/refused notes\.create .*nothing was sent/);
        expect(proxy.executes.get('deals.list')).toBeGreaterThan(0);
        expect(proxy.executes.get('notes.create') ?? 0).toBe(0);
      } finally {
        if (saved === undefined) delete process.env.RECIPE_STORE;
        else process.env.RECIPE_STORE = saved;
      }
    });
  });
});
