// A run with 10 calls to shared packages read from the store vs the same recipes vendored into the project
// (issue 22: no slower by more than 5 %). Both sides are the same `recipe run` child process, offline (the
// lock pins each package; a run hashes each package folder once before compiling), alternated so that drift in
// the machine's load hits both. Uses dist/ (npm run build first).
//   node bench/packages-calls.mjs [--runs 10]      or      npm run bench -- --only packages
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { median, runNode } from './lib/proc.mjs';

const RECIPE_BIN = fileURLToPath(new URL('../bin/recipe.js', import.meta.url));
const FIXTURES = fileURLToPath(new URL('../test/cli/fixtures/crm.yaml', import.meta.url));
const CALLS = 10;

const GIT_ENV = {
  ...process.env,
  GIT_AUTHOR_NAME: 'Bench',
  GIT_AUTHOR_EMAIL: 'bench@example.com',
  GIT_COMMITTER_NAME: 'Bench',
  GIT_COMMITTER_EMAIL: 'bench@example.com',
  GIT_CONFIG_NOSYSTEM: '1',
};
/** @param {string} cwd @param {string[]} args */
const git = (cwd, ...args) =>
  execFileSync('git', ['-c', 'init.defaultBranch=main', ...args], { cwd, env: { ...GIT_ENV, HOME: cwd } });

/** @param {number} i */
const callee = (i) => `version: 1
name: count-${i}
connector: { definition: CRM }
steps:
  - id: deals
    paginate: { entity: deals, action: list, params: { limit: 10 } }
outputs:
  n: "\${ $count($deals) }"
`;

/**
 * Two projects calling the same 10 packages (10 tags of a git repository on file://, each a different commit):
 * `store/` reads them from the store, `vendored/` from its vendor folder.
 * @param {string} root
 * @returns {Promise<{ store: string, vendored: string, env: Record<string, string> }>}
 */
async function setUp(root) {
  const bare = join(root, 'remote.git');
  const work = join(root, 'work');
  mkdirSync(bare, { recursive: true });
  mkdirSync(work, { recursive: true });
  git(bare, 'init', '--bare', '--quiet');
  git(work, 'init', '--quiet');
  for (let i = 0; i < CALLS; i++) {
    mkdirSync(join(work, 'crm'), { recursive: true });
    writeFileSync(join(work, 'crm', 'count.yaml'), callee(i));
    writeFileSync(join(work, 'README.md'), `version ${i}\n`.repeat(50));
    git(work, 'add', '-A');
    git(work, 'commit', '--quiet', '-m', `v1.0.${i}`);
    git(work, 'tag', `v1.0.${i}`);
  }
  git(work, 'push', '--quiet', bare, 'HEAD:refs/heads/main', '--tags');
  const url = `file://${bare}`;
  const steps = Array.from(
    { length: CALLS },
    (_, i) => `  - id: c${i}\n    call: git:${url}//crm/count.yaml@v1.0.${i}\n`,
  ).join('');
  const outputs = Array.from({ length: CALLS }, (_, i) => `$c${i}.n`).join(' + ');
  const store = join(root, 'store-project');
  mkdirSync(store, { recursive: true });
  writeFileSync(
    join(store, 'main.yaml'),
    `version: 1\nname: ten-calls\nconnector: { definition: CRM }\nsteps:\n${steps}outputs:\n  count: "\${ ${outputs} }"\n`,
  );
  const env = { RECIPE_STORE: join(root, 'store'), CI: '', NO_COLOR: '1' };
  await runNode([RECIPE_BIN, 'deps', 'install', '-C', store], { env, cwd: store });
  const vendored = join(root, 'vendored-project');
  cpSync(store, vendored, { recursive: true });
  await runNode([RECIPE_BIN, 'deps', 'vendor', '-C', vendored], { env, cwd: vendored });
  return { store, vendored, env };
}

/**
 * One `recipe run` of the project's main.yaml: wall time, and the run's own time (its steps).
 * @param {string} project @param {Record<string, string>} env
 */
async function runOnce(project, env) {
  const r = await runNode([RECIPE_BIN, 'run', 'main.yaml', '--fixtures', FIXTURES, '--quiet', '--json'], {
    env,
    cwd: project,
  });
  /** @type {{ status: string, outputs?: { count?: unknown }, steps: Array<{ depth: number, duration_ms: number }> }} */
  const report = JSON.parse(r.stdout);
  if (report.status !== 'ok' || report.outputs?.count !== 3 * CALLS)
    throw new Error(`${project}: status ${report.status}, count ${report.outputs?.count}`);
  return { wallMs: r.wallMs, workMs: report.steps.filter((s) => s.depth === 0).reduce((a, s) => a + s.duration_ms, 0) };
}

/**
 * The section: adds the figure (store over vendored, wall time, target ratio ≤ 1.05) and the run's own time.
 * @param {import('./lib/section-context.mjs').SectionContext} ctx
 * @param {number} runs
 */
export async function benchPackageCalls({ figures, log, tmp }, runs) {
  const root = mkdtempSync(join(tmp, 'packages-calls-'));
  log(`shared packages: a run with ${CALLS} calls to git packages, from the store vs vendored, ${runs} runs each`);
  const { store, vendored, env } = await setUp(root);
  /** @type {{ store: number[], vendored: number[], storeWork: number[], vendoredWork: number[] }} */
  const s = { store: [], vendored: [], storeWork: [], vendoredWork: [] };
  // One run of each first, unmeasured: the OS's file cache holds both sides alike.
  await runOnce(store, env);
  await runOnce(vendored, env);
  for (let i = 0; i < runs; i++) {
    // Alternate which side goes first, so neither always follows the other.
    for (const side of i % 2 === 0 ? ['store', 'vendored'] : ['vendored', 'store']) {
      const r = await runOnce(side === 'store' ? store : vendored, env);
      s[/** @type {'store' | 'vendored'} */ (side)].push(r.wallMs);
      s[/** @type {'storeWork' | 'vendoredWork'} */ (`${side}Work`)].push(r.workMs);
    }
    log(
      `  run ${i + 1}/${runs}: store ${Math.round(s.store.at(-1) ?? 0)} ms | vendored ${Math.round(s.vendored.at(-1) ?? 0)} ms`,
    );
  }
  figures.add({
    section: '12 shared packages',
    name: `recipe run with ${CALLS} package calls read from the store (wall, median)`,
    unit: 'ms',
    value: median(s.store),
    comparison: median(s.vendored),
    comparisonName: 'the same recipes vendored',
    target: { of: 'ratio', op: '<=', limit: 1.05 },
  });
  figures.add({
    section: '12 shared packages',
    name: `the same run's steps only (median)`,
    unit: 'ms',
    value: median(s.storeWork),
    comparison: median(s.vendoredWork),
    comparisonName: 'vendored',
  });
  rmSync(root, { recursive: true, force: true });
}

// Run directly: print the figures as JSON.
if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const i = process.argv.indexOf('--runs');
  const runs = i > 0 ? Number(process.argv[i + 1]) : 10;
  const tmp = mkdtempSync(join(tmpdir(), 'recipe-bench-'));
  const { Figures } = await import('./lib/figures.mjs');
  const figures = new Figures();
  const before = loadavg()[0];
  try {
    await benchPackageCalls({ figures, log: (l) => process.stderr.write(`${l}\n`), tmp }, runs);
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
  console.log(JSON.stringify({ figures: figures.list, loadavg_before: before, loadavg_after: loadavg()[0] }, null, 2));
}
