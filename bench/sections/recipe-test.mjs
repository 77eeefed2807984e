// Figure 6 (issue 11): `recipe test` on 100 cases of the shipped recipes' size (copies of recipes/*.test.yaml),
// wall time of the CLI, against the same with --jobs 2; and the data reset between cases (SQLite backup API
// into the running service) against starting a fresh service per case.
import { copyFileSync, cpSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseDocument } from 'yaml';
import { median, runNode } from '../lib/proc.mjs';

const ROOT = new URL('../../', import.meta.url).pathname;

/**
 * A folder with recipes/ (and schemas/) and copies of the shipped test files holding `total` cases in all.
 * @param {string} dir
 * @param {number} total
 * @returns {number} the number of cases
 */
export function generateSuite(dir, total) {
  cpSync(join(ROOT, 'recipes'), join(dir, 'recipes'), { recursive: true });
  cpSync(join(ROOT, 'schemas'), join(dir, 'schemas'), { recursive: true });
  const shipped = readdirSync(join(dir, 'recipes')).filter((f) => f.endsWith('.test.yaml'));
  let count = shipped.reduce(
    (n, f) => n + parseDocument(readFileSync(join(dir, 'recipes', f), 'utf8')).toJS().cases.length,
    0,
  );
  for (let copy = 1; count < total; copy++) {
    for (const f of shipped) {
      if (count >= total) break;
      const doc = parseDocument(readFileSync(join(dir, 'recipes', f), 'utf8'));
      const cases = /** @type {import('yaml').YAMLSeq} */ (doc.get('cases'));
      while (cases.items.length > total - count) cases.items.pop(); // `after` points up, so a prefix stays valid
      count += cases.items.length;
      writeFileSync(join(dir, 'recipes', f.replace('.test.yaml', `.copy-${copy}.test.yaml`)), doc.toString());
    }
  }
  return count;
}

/**
 * Adds the recipe test figures.
 * @param {import('../lib/section-context.mjs').SectionContext} ctx
 * @param {number} runs
 */
export async function benchRecipeTest({ figures, log, tmp }, runs) {
  const dir = join(tmp, 'recipe-test');
  mkdirSync(dir, { recursive: true });
  const cases = generateSuite(dir, 100);
  log(`recipe test: ${cases} cases (copies of the shipped test files), ${runs} runs, --jobs 1 and --jobs 2`);
  /** @param {string[]} extra */
  const wall = async (extra) => {
    const walls = [];
    for (let i = 0; i < runs; i++) {
      const res = await runNode(['bin/recipe.js', 'test', join(dir, 'recipes'), ...extra], {
        cwd: ROOT,
        env: { NO_COLOR: '1' },
      });
      if (!/^100 passed, 0 failed/m.test(res.stdout))
        throw new Error(`recipe test did not pass 100 cases:\n${res.stdout.slice(-500)}`);
      walls.push(res.wallMs);
    }
    return median(walls);
  };
  const one = await wall([]);
  const two = await wall(['--jobs', '2']);
  log(`  --jobs 1 ${Math.round(one)} ms, --jobs 2 ${Math.round(two)} ms`);
  figures.add({
    section: '6 recipe test',
    name: '100 cases of the shipped recipes (wall, CLI)',
    unit: 'ms',
    value: one,
    comparison: two,
    comparisonName: '--jobs 2',
    target: { of: 'value', op: '<', limit: 10_000 },
  });

  log('recipe test: data reset between cases, backup API into the running service against a fresh service per case');
  const { Templates } = await import(join(ROOT, 'dist/test-runner/templates.js'));
  const { ServiceSlot, TEST_CREDENTIALS } = await import(join(ROOT, 'dist/test-runner/service-slot.js'));
  const { TestClock } = await import(join(ROOT, 'dist/test-runner/clock.js'));
  const { startService } = await import(join(ROOT, 'dist/service/start.js'));
  const work = join(tmp, 'recipe-test-reset');
  mkdirSync(work, { recursive: true });
  const templates = new Templates(work);
  const fixtures = { kind: 'fixtures', path: join(ROOT, 'recipes/crm-small.fixtures.yaml') };
  const template = await templates.get(fixtures, '2026-03-01T09:00:00Z');
  const slot = await ServiceSlot.start(work, template, new TestClock());
  const snapshot = await slot.snapshot();
  const resets = [];
  for (let i = 0; i < 40; i++) {
    const t0 = performance.now();
    await slot.restore(i % 2 === 0 ? snapshot : template);
    resets.push(performance.now() - t0);
  }
  await slot.close();
  const fresh = [];
  for (let i = 0; i < 8; i++) {
    const t0 = performance.now();
    copyFileSync(template, join(work, 'fresh.db'));
    const service = await startService({
      db: join(work, 'fresh.db'),
      seed: 'none',
      ...TEST_CREDENTIALS,
      logLevel: 'silent',
    });
    await service.close();
    fresh.push(performance.now() - t0);
  }
  log(`  backup API ${median(resets).toFixed(1)} ms, fresh service ${median(fresh).toFixed(1)} ms (medians)`);
  figures.add({
    section: '6 recipe test',
    name: 'data reset between cases (SQLite backup API, running service)',
    unit: 'ms',
    value: median(resets),
    comparison: median(fresh),
    comparisonName: 'a fresh service per case',
  });
}
