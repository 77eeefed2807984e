// Runs a hand-written script and the equivalent `recipe run` alternately in child processes, so that drift
// in the machine's load hits both, and summarises the medians.
import { median, runNode } from './proc.mjs';

/** `recipe run FILE --quiet --json`, checked: status ok and outputs.count as expected. */
export async function runRecipe(file, env, expectCount, extra = []) {
  const r = await runNode(['bin/recipe.js', 'run', file, '--quiet', '--json', ...extra], { env });
  const report = JSON.parse(r.stdout);
  if (report.status !== 'ok') throw new Error(`${file}: run status ${report.status}`);
  if (expectCount !== undefined && report.outputs?.count !== expectCount)
    throw new Error(`${file}: count ${report.outputs?.count}, expected ${expectCount}`);
  // Work time: the steps themselves (token and connector lookup happen inside the first step).
  const workMs = report.steps.filter((s) => s.depth === 0).reduce((a, s) => a + s.duration_ms, 0);
  return { wallMs: r.wallMs, maxRssMb: r.maxRssMb, workMs };
}

/** The hand-written script, checked: it prints {count, work_ms}. */
export async function runScript(args, env, expectCount) {
  const r = await runNode(args, { env });
  const out = JSON.parse(r.stdout.trim().split('\n').pop());
  if (expectCount !== undefined && out.count !== expectCount)
    throw new Error(`${args[0]}: count ${out.count}, expected ${expectCount}`);
  return { wallMs: r.wallMs, maxRssMb: r.maxRssMb, workMs: out.work_ms };
}

/** Alternates script and recipe `runs` times; medians of wall, work and peak RSS for each. */
export async function comparePair(runs, script, recipe, log) {
  const s = [];
  const r = [];
  for (let i = 0; i < runs; i++) {
    s.push(await script());
    r.push(await recipe());
    log(`  run ${i + 1}/${runs}: script ${fmt(s[i])} | recipe ${fmt(r[i])}`);
  }
  return { script: summarize(s), recipe: summarize(r) };
}

function summarize(rs) {
  return {
    wallMs: median(rs.map((x) => x.wallMs)),
    workMs: median(rs.map((x) => x.workMs)),
    maxRssMb: rs.every((x) => x.maxRssMb !== null) ? median(rs.map((x) => x.maxRssMb)) : null,
    runs: rs.map((x) => ({ wallMs: round(x.wallMs), workMs: round(x.workMs), maxRssMb: round(x.maxRssMb) })),
  };
}

const round = (x) => (x === null ? null : Math.round(x * 10) / 10);
const fmt = (x) =>
  `${Math.round(x.wallMs)} ms wall, ${Math.round(x.workMs)} ms work, ${x.maxRssMb === null ? '?' : Math.round(x.maxRssMb)} MB`;
