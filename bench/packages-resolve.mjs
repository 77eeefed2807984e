// recipe.lock of 50 packages resolved from a warm store (issue 22: ≤ 200 ms): what every run, validate and
// worker does before compiling a recipe that calls packages. Uses dist/ (npm run build first).
// node bench/packages-resolve.mjs [--packages 50] [--runs 20]
import { mkdirSync, mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { loadRecipe } from '../dist/compile/index.js';
import {
  formatLock,
  hashDir,
  locatePackage,
  openPackageContext,
  packageKey,
  storePath,
} from '../dist/packages/index.js';

/** @param {string} name @param {number} dflt */
const arg = (name, dflt) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : dflt;
};
const N = arg('packages', 50);
const RUNS = arg('runs', 20);
const root = mkdtempSync(join(tmpdir(), 'recipe-bench-pkgs-'));
const store = join(root, 'store');
const project = join(root, 'project');
mkdirSync(project, { recursive: true });

/** @param {number} i */
const recipe = (i) => `version: 1
name: p${i}
connector: { definition: CRM }
steps:
  - id: deals
    paginate: { entity: deals, action: list, params: { limit: 10 } }
outputs:
  n: "\${ $count($deals) }"
`;
/** @type {Record<string, import('../dist/packages/index.js').LockedPackage>} */
const packages = {};
/** @type {import('../dist/packages/source.js').GitSource[]} */
const sources = [];
for (let i = 0; i < N; i++) {
  const tmp = join(root, `pkg${i}`);
  mkdirSync(join(tmp, 'crm'), { recursive: true });
  // A package of a few files, as a small shared-recipes repository would be.
  writeFileSync(join(tmp, 'crm', 'count.yaml'), recipe(i));
  writeFileSync(join(tmp, 'crm', 'other.yaml'), recipe(i + 1000));
  writeFileSync(join(tmp, 'README.md'), `package ${i}\n`.repeat(50));
  const hash = hashDir(tmp);
  mkdirSync(join(store, 'pkgs'), { recursive: true });
  const dest = storePath(store, hash);
  rmSync(dest, { recursive: true, force: true });
  renameSync(tmp, dest);
  /** @type {import('../dist/packages/source.js').GitSource} */
  const source = { kind: 'git', url: `https://example.com/acme/r${i}.git`, ref: 'v1.0.0', path: 'crm/count.yaml' };
  sources.push(source);
  packages[packageKey(source)] = {
    source: 'git',
    url: source.url,
    ref: 'v1.0.0',
    ref_kind: 'tag',
    ref_name: 'refs/tags/v1.0.0',
    commit: String(i).padStart(40, '0'),
    reachable: true,
    hash,
    calls: [],
    footprint: { reads: ['deals.list'], writes: [], secrets: [], http: [] },
  };
}
writeFileSync(join(project, 'recipe.lock'), formatLock({ version: 1, packages }));
const steps = sources.map((s, i) => `  - id: c${i}\n    call: git:${s.url}//${s.path}@${s.ref}\n`).join('');
writeFileSync(join(project, 'main.yaml'), `version: 1\nname: main\nsteps:\n${steps}`);

process.env.RECIPE_STORE = store;
/** @param {number[]} xs */
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;
const resolve = [];
const compile = [];
for (let r = 0; r < RUNS; r++) {
  let t = performance.now();
  const ctx = openPackageContext(project, { RECIPE_STORE: store });
  if (!ctx) throw new Error('no recipe.lock in the project');
  for (const s of sources) locatePackage(ctx, s);
  resolve.push(performance.now() - t);
  t = performance.now();
  const { plan, diagnostics } = await loadRecipe(join(project, 'main.yaml'), { packages: {} });
  if (!plan) throw new Error(JSON.stringify(diagnostics.slice(0, 3)));
  compile.push(performance.now() - t);
}
console.log(
  JSON.stringify(
    {
      packages: N,
      runs: RUNS,
      resolve_lock_ms_median: Number(median(resolve).toFixed(1)),
      resolve_target_ms: 200,
      met: median(resolve) <= 200,
      compile_recipe_calling_all_ms_median: Number(median(compile).toFixed(1)),
    },
    null,
    2,
  ),
);
rmSync(root, { recursive: true, force: true });
