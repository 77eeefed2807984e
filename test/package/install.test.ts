/**
 * The package can be packed and installed (issue 12 point 8): `npm pack`, then the tarball installed in an
 * empty project, offline, then `npx recipe` run there as a user would. Offline means the versions this
 * checkout's package-lock.json resolved, from the npm cache `npm ci` filled: the empty project gets a
 * lockfile with those entries (the dependencies, not the dev dependencies), as a project that installed the
 * tarball would have. Install scripts are not run: better-sqlite3's would compile its native module for two
 * minutes (no prebuilt binary can be downloaded here), so the one this checkout built is copied in.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';

const ROOT = new URL('../../', import.meta.url).pathname;
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
  version: string;
  dependencies: Record<string, string>;
  bin: Record<string, string>;
  overrides?: Record<string, unknown>;
};
const NATIVE = 'node_modules/better-sqlite3/build/Release/better_sqlite3.node';

/** The environment of a user's shell: none of the npm_* variables `npm test` sets for its scripts. */
function userEnv(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (v === undefined || /^npm_/i.test(k) || k.startsWith('CONNECTOR_') || k === 'INIT_CWD') continue;
    env[k] = v;
  }
  return { ...env, NO_COLOR: '1' };
}

function run(cmd: string, args: string[], cwd: string): string {
  const r = spawnSync(cmd, args, { cwd, env: userEnv(), encoding: 'utf8', timeout: 120_000 });
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} exited ${r.status}\n${r.stderr}\n${r.stdout}`);
  return r.stdout;
}

let project: string;
let tarball: string;

beforeAll(() => {
  const dir = mkdtempSync(join(tmpdir(), 'recipe-pack-'));
  // dist/ is built by `npm test` before vitest runs; --ignore-scripts keeps `prepare` from building it again.
  const packed = JSON.parse(
    execFileSync('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', dir], {
      cwd: ROOT,
      env: userEnv(),
      encoding: 'utf8',
    }),
  ) as { filename: string; files: { path: string }[] }[];
  tarball = join(dir, packed[0]!.filename);
  project = join(dir, 'project');
  mkdirSync(project);
  const lock = JSON.parse(readFileSync(join(ROOT, 'package-lock.json'), 'utf8')) as {
    packages: Record<string, { dev?: boolean }>;
  };
  const spec = `file:../${packed[0]!.filename}`;
  const packages: Record<string, unknown> = { '': { name: 'project', dependencies: { recipe: spec } } };
  for (const [path, entry] of Object.entries(lock.packages))
    if (path.startsWith('node_modules/') && !entry.dev) packages[path] = entry;
  packages['node_modules/recipe'] = {
    version: pkg.version,
    resolved: spec,
    dependencies: pkg.dependencies,
    bin: pkg.bin,
  };
  writeFileSync(
    join(project, 'package.json'),
    // The package's overrides (a Node-20 cookie under light-my-request) do not reach a consumer: it states them too.
    JSON.stringify({ name: 'project', private: true, dependencies: { recipe: spec }, overrides: pkg.overrides }),
  );
  writeFileSync(
    join(project, 'package-lock.json'),
    JSON.stringify({ name: 'project', lockfileVersion: 3, requires: true, packages }),
  );
  run('npm', ['ci', '--offline', '--ignore-scripts', '--no-audit', '--no-fund'], project);
  mkdirSync(join(project, 'node_modules/better-sqlite3/build/Release'), { recursive: true });
  copyFileSync(join(ROOT, NATIVE), join(project, NATIVE));
}, 180_000);

describe('npm pack + install in an empty project', () => {
  it('the tarball holds the CLI, the built code, the schemas, the shipped recipes and the init templates, no tests', () => {
    const files = execFileSync('tar', ['-tzf', tarball], { encoding: 'utf8' }).split('\n');
    for (const f of [
      'package/bin/recipe.js',
      'package/dist/cli/main.js',
      'package/dist/schema/recipe-validator.js',
      'package/schemas/recipe.schema.json',
      'package/recipes/pipeline-report.yaml',
      'package/templates/init/github/workflows/recipes.yml',
      'package/README.md',
    ])
      expect(files).toContain(f);
    expect(files.filter((f) => f.startsWith('package/test/') || f.startsWith('package/src/'))).toEqual([]);
  });

  it('npx recipe --version runs the installed copy', () => {
    expect(existsSync(join(project, 'node_modules/.bin/recipe'))).toBe(true);
    expect(run('npx', ['recipe', '--version'], project).trim()).toBe(pkg.version);
  });

  it('runs recipes from there: init, validate, a hermetic run, a shipped recipe on the demo data', () => {
    run('npx', ['recipe', 'init', '.'], project);
    expect(existsSync(join(project, 'node_modules/recipe/schemas/recipe.schema.json'))).toBe(true); // .vscode/settings.json points here
    run('npx', ['recipe', 'validate', '.'], project);
    const report = JSON.parse(
      run(
        'npx',
        [
          'recipe',
          'run',
          'recipes/deals-closing-soon.yaml',
          '--fixtures',
          'fixtures/crm.yaml',
          '--now',
          '2026-07-15T09:00:00Z',
          '--json',
        ],
        project,
      ),
    ) as { status: string; outputs: Record<string, unknown> };
    expect(report).toMatchObject({ status: 'ok', outputs: { open_deals: 2, follow_ups: ['Acme renewal'] } });
    const shipped = run('npx', ['recipe', 'run', 'node_modules/recipe/recipes/pipeline-report.yaml', '-q'], project);
    expect(shipped).toMatch(/^open_deals: \d+$/m);
    expect(existsSync(join(project, '.recipe/local.db'))).toBe(true);
  }, 120_000);
});
