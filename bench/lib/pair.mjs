// Runs a hand-written script and the equivalent `recipe run` alternately in child processes, so that drift
// in the machine's load hits both, and summarises the medians.
import { median, runNode } from './proc.mjs';

/** @typedef {Record<string, string>} Env */

/**
 * One run of either side. `workMs` leaves out process start; `maxRssMb` is null when peak RSS could not be read.
 * @typedef {{ wallMs: number, maxRssMb: number | null, workMs: number }} Sample
 */

/**
 * Medians of one side's samples, and the samples themselves (rounded).
 * @typedef {{ wallMs: number, workMs: number, maxRssMb: number | null, runs: Array<{ wallMs: number | null, workMs: number | null, maxRssMb: number | null }> }} Summary
 */

/**
 * The part of `recipe run --json`'s report read here.
 * @typedef {{ status: string, outputs?: { count?: unknown }, steps: Array<{ depth: number, duration_ms: number }> }} RunReport
 */

/**
 * `recipe run FILE --quiet --json`, checked: status ok and outputs.count as expected.
 * @param {string} file
 * @param {Env} env
 * @param {number | undefined} expectCount  undefined: the count is not checked
 * @param {string[]} [extra]  more arguments for `recipe run`
 * @returns {Promise<Sample>}
 */
export async function runRecipe(file, env, expectCount, extra = []) {
  const r = await runNode(['bin/recipe.js', 'run', file, '--quiet', '--json', ...extra], { env });
  /** @type {RunReport} */
  const report = JSON.parse(r.stdout);
  if (report.status !== 'ok') throw new Error(`${file}: run status ${report.status}`);
  if (expectCount !== undefined && report.outputs?.count !== expectCount)
    throw new Error(`${file}: count ${report.outputs?.count}, expected ${expectCount}`);
  // Work time: the steps themselves (token and connector lookup happen inside the first step).
  const workMs = report.steps.filter((s) => s.depth === 0).reduce((a, s) => a + s.duration_ms, 0);
  return { wallMs: r.wallMs, maxRssMb: r.maxRssMb, workMs };
}

/**
 * The hand-written script, checked: it prints {count, work_ms}.
 * @param {string[]} args
 * @param {Env} env
 * @param {number | undefined} expectCount  undefined: the count is not checked
 * @returns {Promise<Sample>}
 */
export async function runScript(args, env, expectCount) {
  const r = await runNode(args, { env });
  /** @type {{ count: number, work_ms: number }} */
  const out = JSON.parse(r.stdout.trim().split('\n').pop() ?? '');
  if (expectCount !== undefined && out.count !== expectCount)
    throw new Error(`${args[0]}: count ${out.count}, expected ${expectCount}`);
  return { wallMs: r.wallMs, maxRssMb: r.maxRssMb, workMs: out.work_ms };
}

/**
 * Alternates script and recipe `runs` times; medians of wall, work and peak RSS for each.
 * @param {number} runs
 * @param {() => Promise<Sample>} script
 * @param {() => Promise<Sample>} recipe
 * @param {import('./section-context.mjs').Log} log
 * @returns {Promise<{ script: Summary, recipe: Summary }>}
 */
export async function comparePair(runs, script, recipe, log) {
  /** @type {Sample[]} */
  const s = [];
  /** @type {Sample[]} */
  const r = [];
  for (let i = 0; i < runs; i++) {
    const sx = await script();
    const rx = await recipe();
    s.push(sx);
    r.push(rx);
    log(`  run ${i + 1}/${runs}: script ${fmt(sx)} | recipe ${fmt(rx)}`);
  }
  return { script: summarize(s), recipe: summarize(r) };
}

/**
 * How far the pairs' own ratios (each recipe run over the run of the other side just before it) spread: a
 * ratio near its target is decided by the machine's noise when the middle half of its pairs straddles it.
 * The pairs' median is there too: the figure itself is a ratio of two medians, which a machine whose speed
 * drifts during the runs can put far from what the pairs, each run next to its partner, say.
 * @param {number[]} values  one side's wall times, in run order
 * @param {number[]} comparisons  the other side's, in the same order
 * @returns {string}  "9 pairs: median 1.08, 0.89–1.36, middle half 1.05–1.18"
 */
export function pairSpread(values, comparisons) {
  const ratios = values.map((v, i) => v / (comparisons[i] ?? Number.NaN)).filter(Number.isFinite);
  ratios.sort((a, b) => a - b);
  const at = (/** @type {number} */ q) => (ratios[Math.round(q * (ratios.length - 1))] ?? Number.NaN).toFixed(2);
  return `${ratios.length} pairs: median ${median(ratios).toFixed(2)}, ${at(0)}–${at(1)}, middle half ${at(0.25)}–${at(0.75)}`;
}

/**
 * @param {Sample[]} rs
 * @returns {Summary}
 */
function summarize(rs) {
  const rss = rs.map((x) => x.maxRssMb);
  return {
    wallMs: median(rs.map((x) => x.wallMs)),
    workMs: median(rs.map((x) => x.workMs)),
    maxRssMb: allMeasured(rss) ? median(rss) : null,
    runs: rs.map((x) => ({ wallMs: round(x.wallMs), workMs: round(x.workMs), maxRssMb: round(x.maxRssMb) })),
  };
}

/**
 * @param {Array<number | null>} xs
 * @returns {xs is number[]}
 */
const allMeasured = (xs) => xs.every((x) => x !== null);

/** @param {number | null} x */
const round = (x) => (x === null ? null : Math.round(x * 10) / 10);
/** @param {Sample} x */
const fmt = (x) =>
  `${Math.round(x.wallMs)} ms wall, ${Math.round(x.workMs)} ms work, ${x.maxRssMb === null ? '?' : Math.round(x.maxRssMb)} MB`;
