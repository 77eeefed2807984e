/**
 * The documented installs survive a clean CI runner (issue 23 point 2): a consumer repository is made,
 * committed, cloned fresh, and `npm ci` runs in the clone with an EMPTY npm cache and the registry pointed at
 * a closed port on 127.0.0.1 (nothing leaves the machine, and anything that needs the registry fails).
 *
 * What is installed is a stand-in for the package: same name, version and `bin` as recipe, no
 * dependencies. recipe's own dependency tree cannot be installed without a registry or a filled cache,
 * and what broke was never that tree: it was where the lockfile says recipe itself comes from. So this
 * tests exactly that part: the README's two ways (a tarball committed in the repository, the git URL)
 * give a lockfile with no `file:` path outside the repository, and a fresh clone's `npm ci` installs
 * recipe from it and `npx recipe` runs; the old way (`npm install ../recipe/recipe-X.tgz`) fails there.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';

const ROOT = new URL('../../', import.meta.url).pathname;
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string };
const TARBALL = `recipe-${pkg.version}.tgz`;

let base: string;

/** npm and git as on a fresh runner: no npm_* from a parent npm, an empty cache, a registry that answers nothing. */
function env(cache: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined && !/^npm_/i.test(k)) out[k] = v;
  return {
    ...out,
    npm_config_cache: cache,
    npm_config_registry: 'http://127.0.0.1:9/',
    npm_config_audit: 'false',
    npm_config_fund: 'false',
    npm_config_update_notifier: 'false',
    npm_config_fetch_retries: '0',
    GIT_AUTHOR_NAME: 'test',
    GIT_AUTHOR_EMAIL: 'test@example.invalid',
    GIT_COMMITTER_NAME: 'test',
    GIT_COMMITTER_EMAIL: 'test@example.invalid',
  };
}

function sh(cmd: string, args: string[], cwd: string, cache = freshCache()) {
  const r = spawnSync(cmd, args, { cwd, env: env(cache), encoding: 'utf8', timeout: 120_000 });
  return { code: r.status, out: `${r.stdout}${r.stderr}` };
}

function ok(cmd: string, args: string[], cwd: string): string {
  const r = sh(cmd, args, cwd);
  if (r.code !== 0) throw new Error(`${cmd} ${args.join(' ')} exited ${r.code}\n${r.out}`);
  return r.out;
}

function freshCache(): string {
  return mkdtempSync(join(base, 'npm-cache-'));
}

/** A consumer repository with a package.json, committed after `install` ran in it; returns its path. */
function consumer(name: string, install: (dir: string) => void): string {
  const dir = join(base, name);
  mkdirSync(dir);
  writeFileSync(join(dir, 'package.json'), `${JSON.stringify({ name, private: true }, null, 2)}\n`);
  ok('git', ['init', '-q', '-b', 'main'], dir);
  install(dir);
  ok('git', ['add', '-A'], dir);
  ok('git', ['commit', '-qm', 'recipes'], dir);
  return dir;
}

/** `git clone` into a new place (as a runner checks out), then `npm ci` with an empty cache. */
function cloneAndCi(repo: string) {
  const clone = mkdtempSync(join(base, 'runner-'));
  ok('git', ['clone', '-q', repo, 'work'], clone);
  const work = join(clone, 'work');
  return { work, ci: sh('npm', ['ci'], work) };
}

let standIn: string;

beforeAll(() => {
  base = mkdtempSync(join(tmpdir(), 'recipe-clean-install-'));
  // The stand-in: recipe's name, version and bin; a git repository, as a clone of recipe is.
  standIn = join(base, 'recipe');
  mkdirSync(join(standIn, 'bin'), { recursive: true });
  writeFileSync(
    join(standIn, 'package.json'),
    `${JSON.stringify({ name: 'recipe', version: pkg.version, bin: { recipe: 'bin/recipe.js' }, files: ['bin'] }, null, 2)}\n`,
  );
  writeFileSync(join(standIn, 'bin/recipe.js'), `#!/usr/bin/env node\nconsole.log('${pkg.version}');\n`, {
    mode: 0o755,
  });
  ok('git', ['init', '-q', '-b', 'main'], standIn);
  ok('git', ['add', '-A'], standIn);
  ok('git', ['commit', '-qm', 'stand-in'], standIn);
}, 120_000);

describe('a fresh clone of the consumer repository, empty npm cache, no registry', () => {
  it('installs recipe from a tarball committed in the repository (README: npm pack into vendor/)', () => {
    const repo = consumer('with-vendor', (dir) => {
      mkdirSync(join(dir, 'vendor'));
      ok('npm', ['pack', '--pack-destination', join(dir, 'vendor')], standIn);
      ok('npm', ['install', '--save-dev', `./vendor/${TARBALL}`], dir);
    });
    const lock = readFileSync(join(repo, 'package-lock.json'), 'utf8');
    expect(JSON.parse(lock).packages['node_modules/recipe'].resolved).toBe(`file:vendor/${TARBALL}`);
    expect(lock + readFileSync(join(repo, 'package.json'), 'utf8')).not.toMatch(/file:\.\.|file:\//);
    const { work, ci } = cloneAndCi(repo);
    expect(ci.code, ci.out).toBe(0);
    expect(ci.out).not.toMatch(/EBADENGINE|ENOENT/);
    expect(ok('npx', ['--no', '--', 'recipe', '--version'], work).trim()).toBe(pkg.version);
  }, 240_000);

  it('installs recipe from its git repository URL (README: npm install --save-dev git+https://...)', () => {
    const repo = consumer('with-git-url', (dir) => {
      ok('npm', ['install', '--save-dev', `git+file://${standIn}`], dir);
    });
    const lock = readFileSync(join(repo, 'package-lock.json'), 'utf8');
    expect(JSON.parse(lock).packages['node_modules/recipe'].resolved).toMatch(/^git\+file:\/\/.*#[0-9a-f]{40}$/);
    const { work, ci } = cloneAndCi(repo);
    expect(ci.code, ci.out).toBe(0);
    expect(ok('npx', ['--no', '--', 'recipe', '--version'], work).trim()).toBe(pkg.version);
  }, 240_000);

  it('fails with the old way: a tarball outside the repository (what the README used to say)', () => {
    ok('npm', ['pack'], standIn);
    const repo = consumer('with-outside-tarball', (dir) => {
      ok('npm', ['install', '--save-dev', `../recipe/${TARBALL}`], dir);
    });
    expect(readFileSync(join(repo, 'package-lock.json'), 'utf8')).toContain(`file:../recipe/${TARBALL}`);
    const { ci } = cloneAndCi(repo);
    expect(ci.code).not.toBe(0);
    expect(ci.out).toMatch(/ENOENT|no such file/i);
  }, 240_000);
});
