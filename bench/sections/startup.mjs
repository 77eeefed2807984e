// Figure 5: `recipe --version` cold start (against a bare `node -e 0`) and `recipe validate` over 200
// generated recipes (against validate over 1 of them), medians of several runs.
import { join } from 'node:path';
import { generateRecipes } from '../lib/gen-recipes.mjs';
import { median, runNode } from '../lib/proc.mjs';

/**
 * Median wall time of `runs` runs of `node args...`.
 * @param {string[]} args
 * @param {number} runs
 */
async function medianWall(args, runs) {
  const walls = [];
  for (let i = 0; i < runs; i++) walls.push((await runNode(args)).wallMs);
  return median(walls);
}

/**
 * Adds the start-up and validation figures.
 * @param {import('../lib/section-context.mjs').SectionContext} ctx
 * @param {number} runs
 */
export async function benchStartup({ figures, log, tmp }, runs) {
  log(`start-up: recipe --version and node -e 0, ${runs * 2 + 1} runs each`);
  const node = await medianWall(['-e', '0'], runs * 2 + 1);
  const version = await medianWall(['bin/recipe.js', '--version'], runs * 2 + 1);
  log(`  node -e 0 ${Math.round(node)} ms, recipe --version ${Math.round(version)} ms`);
  const dir = join(tmp, 'validate-200');
  const [first] = generateRecipes(dir, 200);
  if (first === undefined) throw new Error('no recipes generated');
  log(`validate: 200 generated recipes, ${runs} runs`);
  const one = await medianWall(['bin/recipe.js', 'validate', first], runs);
  const all = await medianWall(['bin/recipe.js', 'validate', dir], runs);
  log(`  1 file ${Math.round(one)} ms, 200 files ${Math.round(all)} ms`);
  figures.add({
    section: '5 start-up',
    name: 'recipe --version cold start',
    unit: 'ms',
    value: version,
    comparison: node,
    comparisonName: 'node -e 0',
    target: { of: 'value', op: '<', limit: 300 },
  });
  figures.add({
    section: '5 start-up',
    name: 'recipe validate, 200 files',
    unit: 'ms',
    value: all,
    comparison: one,
    comparisonName: '1 file',
    target: { of: 'value', op: '<', limit: 1000 },
  });
}
