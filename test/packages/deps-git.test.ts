import { readFileSync, rmSync, writeFileSync, appendFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { runCli } from '../cli/cli-process.js';
import { Library, startGitDaemon, tempDir, writeFiles } from './git-repos.js';

/** `recipe deps` over real git repositories in a temp folder (file:// and git daemon on 127.0.0.1). */
const fixtures = new URL('../cli/fixtures/crm.yaml', import.meta.url).pathname;

const COUNT = `version: 1
name: count-deals
connector: { definition: CRM }
steps:
  - id: deals
    paginate: { entity: deals, action: list, params: { limit: 100 } }
outputs:
  n: "\${ $count($deals) }"
`;
const NOTE = `version: 1
name: add-note
connector: { definition: CRM }
inputs:
  text: { type: string, required: true }
steps:
  - id: note
    execute: { entity: notes, action: create, params: { properties: { hs_note_body: "\${ $inputs.text }" } } }
outputs:
  id: "\${ $note.id }"
`;

let root: string;
let lib: Library;
let project: string;
let env: Record<string, string>;

beforeEach(() => {
  root = tempDir();
  lib = new Library(root, 'recipes');
  project = join(root, 'project');
  env = { RECIPE_STORE: join(root, 'store'), CI: '' };
});

const main = (call: string, extra = '') => `version: 1
name: main
connector: { definition: CRM }
steps:
  - id: counted
    call: ${call}${extra}
outputs:
  n: "\${ $counted.n }"
`;

const deps = (...args: string[]) => runCli(['deps', ...args, '-C', project], { cwd: project, env });

// Each case starts several CLI processes and git; on a busy machine that takes a while.
describe('recipe deps over git', { timeout: 300_000 }, () => {
  it('install pins the ref in recipe.lock (commit, h1 hash, reachability, footprint); run and validate read the store', async () => {
    const c1 = lib.commit({ 'crm/count.yaml': COUNT });
    lib.tag('v1.0.0');
    writeFiles(project, { 'main.yaml': main(`git:${lib.url}//crm/count.yaml@v1.0.0`) });

    const before = await runCli(['validate', 'main.yaml'], { cwd: project, env });
    expect(before.code).toBe(2);
    expect(before.stdout + before.stderr).toMatch(/P002.*recipe deps install/);

    const r = await deps('install');
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const text = readFileSync(join(project, 'recipe.lock'), 'utf8');
    const lock = JSON.parse(text);
    const entry = lock.packages[`git:${lib.url}@v1.0.0`];
    expect(entry).toMatchObject({
      source: 'git',
      commit: c1,
      ref_kind: 'tag',
      ref_name: 'refs/tags/v1.0.0',
      reachable: true,
      calls: [],
      footprint: { reads: ['deals.list'], writes: [], secrets: [], http: [] },
    });
    expect(entry.hash).toMatch(/^h1:[A-Za-z0-9+/]{43}=$/);
    // Stable: a second install changes nothing, byte for byte.
    expect((await deps('install')).stdout).toMatch(/^kept/);
    expect(readFileSync(join(project, 'recipe.lock'), 'utf8')).toBe(text);

    const run = await runCli(['run', 'main.yaml', '--fixtures', fixtures, '--journal', 'runs.db', '--json'], {
      cwd: project,
      env,
    });
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout).outputs).toEqual({ n: 3 });
    // The journal names the package and its commit; `recipe runs show` prints them.
    const runId = JSON.parse(run.stdout).run_id;
    const shown = await runCli(['runs', 'show', runId, '--journal', 'runs.db'], { cwd: project, env });
    expect(shown.stdout).toContain(`packages:\n  git:${lib.url}@v1.0.0  ${c1}\n`);
    const shownJson = await runCli(['runs', 'show', runId, '--journal', 'runs.db', '--json'], { cwd: project, env });
    expect(JSON.parse(shownJson.stdout).packages).toEqual([{ key: `git:${lib.url}@v1.0.0`, resolved: c1 }]);
  });

  it('the object form and a semver range resolve to the highest vX.Y.Z tag', async () => {
    lib.commit({ 'crm/count.yaml': COUNT });
    lib.tag('v1.0.0');
    const c2 = lib.commit({ 'README.md': 'two' });
    lib.tag('v1.2.0');
    lib.commit({ 'README.md': 'three' });
    lib.tag('v2.0.0');
    writeFiles(project, { 'main.yaml': main(`{ git: "${lib.url}", ref: "^1.0", path: crm/count.yaml }`) });
    expect((await deps('install')).code).toBe(0);
    const lock = JSON.parse(readFileSync(join(project, 'recipe.lock'), 'utf8'));
    expect(lock.packages[`git:${lib.url}@^1.0`]).toMatchObject({
      commit: c2,
      ref_kind: 'semver',
      ref_name: 'refs/tags/v1.2.0',
    });
  });

  it('a branch ref pins the head of the branch (ref_kind branch, reachable)', async () => {
    lib.commit({ 'crm/count.yaml': COUNT });
    const head = lib.commit({ 'README.md': 'on main' });
    writeFiles(project, { 'main.yaml': main(`git:${lib.url}//crm/count.yaml@main`) });
    expect((await deps('install')).code).toBe(0);
    const lock = JSON.parse(readFileSync(join(project, 'recipe.lock'), 'utf8'));
    expect(lock.packages[`git:${lib.url}@main`]).toMatchObject({
      commit: head,
      ref_kind: 'branch',
      ref_name: 'refs/heads/main',
      reachable: true,
    });
  });

  it('--frozen (the default under CI=true) fails instead of writing the lock; runs never fetch (zero connections to git daemon)', async () => {
    lib.commit({ 'crm/count.yaml': COUNT });
    lib.tag('v1.0.0');
    const daemon = await startGitDaemon(join(root, 'remotes'));
    try {
      writeFiles(project, { 'main.yaml': main(`git:${daemon.url}/recipes.git//crm/count.yaml@v1.0.0`) });
      const frozen = await runCli(['deps', 'install', '-C', project], { cwd: project, env: { ...env, CI: 'true' } });
      expect(frozen.code).toBe(2);
      expect(frozen.stderr).toMatch(/P015.*--frozen/);
      expect(() => readFileSync(join(project, 'recipe.lock'))).toThrow();

      expect((await deps('install')).code).toBe(0);
      const afterInstall = daemon.connections();
      expect(afterInstall).toBeGreaterThan(0);
      expect(
        (await runCli(['deps', 'install', '-C', project], { cwd: project, env: { ...env, CI: 'true' } })).code,
      ).toBe(0);
      const validate = await runCli(['validate', 'main.yaml'], { cwd: project, env });
      expect(validate.code).toBe(0);
      const run = await runCli(['run', 'main.yaml', '--fixtures', fixtures, '--json'], { cwd: project, env });
      expect(run.code).toBe(0);
      expect(daemon.connections()).toBe(afterInstall);
    } finally {
      daemon.close();
    }
  });

  it('update moves a range to a new tag and prints old → new, changed files and the footprint diff', async () => {
    const c1 = lib.commit({ 'crm/count.yaml': COUNT });
    lib.tag('v1.0.0');
    writeFiles(project, { 'main.yaml': main(`git:${lib.url}//crm/count.yaml@^1.0`) });
    expect((await deps('install')).code).toBe(0);
    const c2 = lib.commit({ 'crm/note.yaml': NOTE, 'crm/count.yaml': COUNT.replace('limit: 100', 'limit: 50') });
    lib.tag('v1.1.0');
    const r = await deps('update');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(`\`${c1.slice(0, 12)}\` (refs/tags/v1.0.0) → \`${c2.slice(0, 12)}\` (refs/tags/v1.1.0)`);
    expect(r.stdout).toContain('- added crm/note.yaml');
    expect(r.stdout).toContain('- changed crm/count.yaml');
    expect(r.stdout).toContain('- **now writes notes.create**');
    const lock = JSON.parse(readFileSync(join(project, 'recipe.lock'), 'utf8'));
    expect(lock.packages[`git:${lib.url}@^1.0`].commit).toBe(c2);
  });

  it('update refuses a tag moved to a commit that does not descend from the locked one, unless --accept-moved', async () => {
    const c1 = lib.commit({ 'crm/count.yaml': COUNT });
    lib.tag('v1.0.0');
    writeFiles(project, { 'main.yaml': main(`git:${lib.url}//crm/count.yaml@v1.0.0`) });
    expect((await deps('install')).code).toBe(0);
    const evil = lib.forceTagToOrphan('v1.0.0', { 'crm/count.yaml': COUNT.replace('deals', 'contacts') });
    const refused = await deps('update');
    expect(refused.code).toBe(3);
    expect(refused.stderr).toMatch(new RegExp(`P014.*moved from ${c1} to ${evil}`));
    const accepted = await deps('update', '--accept-moved');
    expect(accepted.code).toBe(0);
    expect(
      JSON.parse(readFileSync(join(project, 'recipe.lock'), 'utf8')).packages[`git:${lib.url}@v1.0.0`].commit,
    ).toBe(evil);
  });

  it('vendor copies the exact files; runs read them with the store gone', async () => {
    lib.commit({ 'crm/count.yaml': COUNT });
    lib.tag('v1.0.0');
    writeFiles(project, { 'main.yaml': main(`git:${lib.url}//crm/count.yaml@v1.0.0`) });
    expect((await deps('install')).code).toBe(0);
    const v = await deps('vendor', '--dir', 'shared');
    expect(v.code).toBe(0);
    expect(JSON.parse(readFileSync(join(project, 'recipe.lock'), 'utf8')).vendor).toBe('shared');
    rmSync(join(root, 'store'), { recursive: true, force: true });
    const run = await runCli(['run', 'main.yaml', '--fixtures', fixtures, '--json'], { cwd: project, env });
    expect(run.code).toBe(0);
    expect((await deps('verify')).stdout).toMatch(/^ok/);
    // An edited vendored file is caught by the run (before anything is sent) and by verify.
    const [name] = readdirSync(join(project, 'shared'));
    appendFileSync(join(project, 'shared', name!, 'crm/count.yaml'), '# edited\n');
    const bad = await runCli(['validate', 'main.yaml'], { cwd: project, env });
    expect(bad.code).toBe(2);
    expect(bad.stdout + bad.stderr).toMatch(/main\.yaml:6:\d+.*P005/s);
  });

  it('verify catches a tampered store file', async () => {
    lib.commit({ 'crm/count.yaml': COUNT });
    lib.tag('v1.0.0');
    writeFiles(project, { 'main.yaml': main(`git:${lib.url}//crm/count.yaml@v1.0.0`) });
    expect((await deps('install')).code).toBe(0);
    const pkgs = join(root, 'store', 'pkgs');
    const [dir] = readdirSync(pkgs);
    writeFileSync(join(pkgs, dir!, 'crm/count.yaml'), COUNT.replace('deals', 'contacts'));
    const r = await deps('verify', '--json');
    expect(r.code).toBe(1);
    expect(JSON.parse(r.stdout).problems).toEqual([
      expect.objectContaining({ key: `git:${lib.url}@v1.0.0`, kind: 'tampered' }),
    ]);
  });

  it('verify --online reports a tag moved since locking', async () => {
    lib.commit({ 'crm/count.yaml': COUNT });
    lib.tag('v1.0.0');
    writeFiles(project, { 'main.yaml': main(`git:${lib.url}//crm/count.yaml@v1.0.0`) });
    expect((await deps('install')).code).toBe(0);
    expect((await deps('verify', '--online')).code).toBe(0);
    lib.forceTagToOrphan('v1.0.0', { 'crm/count.yaml': COUNT });
    const r = await deps('verify', '--online', '--json');
    expect(r.code).toBe(1);
    expect(JSON.parse(r.stdout).problems).toEqual([
      expect.objectContaining({ kind: 'moved', detail: expect.stringMatching(/does not descend/) }),
    ]);
  });

  it('verify --online catches a lock edited to an impostor commit (reachable only from refs/pull/*)', async () => {
    lib.commit({ 'crm/count.yaml': COUNT });
    lib.tag('v1.0.0');
    writeFiles(project, { 'main.yaml': main(`git:${lib.url}//crm/count.yaml@v1.0.0`) });
    expect((await deps('install')).code).toBe(0);
    const impostor = lib.pullRequestCommit({ 'crm/count.yaml': COUNT.replace('deals', 'contacts') });
    const file = join(project, 'recipe.lock');
    const lock = JSON.parse(readFileSync(file, 'utf8'));
    lock.packages[`git:${lib.url}@v1.0.0`].commit = impostor;
    writeFileSync(file, JSON.stringify(lock, null, 2));
    const r = await deps('verify', '--online', '--json');
    expect(r.code).toBe(1);
    expect(JSON.parse(r.stdout).problems).toContainEqual(
      expect.objectContaining({
        key: `git:${lib.url}@v1.0.0`,
        kind: 'unreachable',
        detail: expect.stringContaining(impostor),
      }),
    );
  });

  it('an impostor commit (reachable only from refs/pull/*) is refused by install', async () => {
    lib.commit({ 'crm/count.yaml': COUNT });
    const impostor = lib.pullRequestCommit({ 'crm/count.yaml': COUNT.replace('deals', 'contacts') });
    writeFiles(project, { 'main.yaml': main(`git:${lib.url}//crm/count.yaml@${impostor}`) });
    const r = await deps('install');
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(new RegExp(`P013.*${impostor}.*not reachable`));
  });

  it('a relative call inside a package may not leave it', async () => {
    lib.commit({
      'crm/count.yaml': COUNT,
      'crm/escape.yaml': `version: 1\nname: escape\nsteps:\n  - call: ../../outside.yaml\n`,
    });
    lib.tag('v1.0.0');
    writeFiles(project, {
      'main.yaml': main(`git:${lib.url}//crm/escape.yaml@v1.0.0`).replace(/outputs:[\s\S]*$/, ''),
    });
    expect((await deps('install')).code).toBe(0);
    const r = await runCli(['validate', 'main.yaml'], { cwd: project, env });
    expect(r.code).toBe(2);
    expect(r.stdout + r.stderr).toMatch(/R011|P007/);
  });
});
