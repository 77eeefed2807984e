// Figure 1: engine overhead (a recipe paging through every contact against a hand-written undici script),
// and streaming mode's peak RSS. Figure 2: foreach fan-out against the same script with the same concurrency.
// These run with --no-journal (the engine alone); the journal's cost is its own pair of figures (benchJournal).
// Figure 7: one expression, compiled, against the same function by hand and against jsonata.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { comparePair, pairSpread, runRecipe, runScript } from '../lib/pair.mjs';
import { median, runNode } from '../lib/proc.mjs';

/** @typedef {import('../lib/section-context.mjs').ServiceContext} ServiceContext */

/**
 * Figure 1 on a service holding `count` contacts.
 * @param {ServiceContext} ctx
 * @param {number} count
 */
export async function benchPaging({ server, figures, log, runs }, count, section = '1 engine') {
  log(`paging through ${count} contacts: recipe vs hand-written undici script, ${runs} runs each`);
  const env = server.env;
  const res = await comparePair(
    runs,
    () => runScript(['bench/baseline/page-contacts.mjs'], env, count),
    () => runRecipe('bench/recipes/page-contacts.yaml', env, count, ['--no-journal']),
    log,
  );
  const label = `page ${count.toLocaleString('en')} contacts`;
  addAgainstScript(figures, section, label, res, 1.1);
  return res;
}

/**
 * Streaming mode (paginate with as + steps) on a service holding `count` contacts: wall time and peak RSS.
 * @param {ServiceContext} ctx
 * @param {number} count
 */
export async function benchStreaming({ server, figures, log, runs }, count, section = '1 engine') {
  log(`streaming ${count} contacts: recipe vs hand-written script (no accumulation), ${runs} runs each`);
  const env = server.env;
  const res = await comparePair(
    runs,
    () => runScript(['bench/baseline/page-contacts.mjs', '--stream'], env, count),
    () => runRecipe('bench/recipes/stream-contacts.yaml', env, undefined, ['--no-journal']),
    log,
  );
  const label = `stream ${count.toLocaleString('en')} contacts`;
  // Issue 29: streaming within 15 % of the hand-written script, and under 150 MB at 1,000,000 contacts.
  addAgainstScript(figures, section, label, res, 1.15, {
    target: { of: 'value', op: '<', limit: 150 },
    ...(count < 1_000_000 && { note: 'the target is stated for 1,000,000 contacts (measured with --full)' }),
  });
  return res;
}

/**
 * Figure 2: a foreach over `n` ids, concurrency 16, one get each.
 * @param {ServiceContext} ctx
 */
export async function benchFanOut({ server, figures, log, runs, tmp }, n = 2000) {
  /** @type {string[]} */
  const ids = [];
  /** @type {string | null | undefined} */
  let after;
  while (ids.length < n) {
    const res = await server.execute({
      entity: 'contacts',
      action: 'list',
      params: { limit: 100, properties: 'email', ...(after && { after }) },
    });
    if (res.status !== 200) throw new Error(`contacts list: HTTP ${res.status}`);
    const page = /** @type {import('../lib/service.mjs').ListEnvelope} */ (res.json);
    ids.push(...page.result.map((c) => c.id));
    after = page.connector_metadata.end_cursor;
    if (!page.connector_metadata.has_next_page) break;
  }
  if (ids.length < n) throw new Error(`only ${ids.length} contacts for the fan-out`);
  const inputs = join(tmp, 'fan-out-ids.json');
  writeFileSync(inputs, JSON.stringify({ ids: ids.slice(0, n) }));
  log(`fan-out: ${n} gets, concurrency 16: recipe vs hand-written script, ${runs} runs each`);
  const env = server.env;
  const res = await comparePair(
    runs,
    () => runScript(['bench/baseline/fan-out.mjs', inputs], env, n),
    () => runRecipe('bench/recipes/fan-out.yaml', env, n, ['--inputs', inputs, '--no-journal']),
    log,
  );
  const label = `foreach ${n.toLocaleString('en')} gets, concurrency 16`;
  // Issue 29: the fan-out within 15 % of the hand-written script (paging: 10 %).
  addAgainstScript(figures, '2 fan-out', label, res, 1.15);
  return res;
}

/**
 * The run journal's cost: figure 1's recipe (paging `count` contacts) and figure 2's fan-out, each run with
 * the journal (the default) and with --no-journal, alternately. The journaled runs share one journal file,
 * as a user's runs share .recipe/runs.db, so SQLite's checkpoints land in the runs as they would.
 * @param {ServiceContext} ctx
 * @param {number} count
 */
export async function benchJournal({ server, figures, log, runs, tmp }, count) {
  const journal = join(tmp, 'bench-runs.db');
  const inputs = join(tmp, 'fan-out-ids.json');
  const pairs = [
    {
      label: `page ${count.toLocaleString('en')} contacts`,
      section: '1 engine',
      run: (/** @type {string[]} */ flags) => runRecipe('bench/recipes/page-contacts.yaml', server.env, count, flags),
    },
    {
      label: 'foreach 2,000 gets, concurrency 16',
      section: '2 fan-out',
      run: (/** @type {string[]} */ flags) =>
        runRecipe('bench/recipes/fan-out.yaml', server.env, 2000, ['--inputs', inputs, ...flags]),
    },
  ];
  for (const pair of pairs) {
    log(`${pair.label}: with the run journal vs --no-journal, ${runs} runs each`);
    /** @type {import('../lib/pair.mjs').Sample[]} */
    const off = [];
    /** @type {import('../lib/pair.mjs').Sample[]} */
    const on = [];
    for (let i = 0; i < runs; i++) {
      off.push(await pair.run(['--no-journal']));
      on.push(await pair.run(['--journal', journal]));
      log(
        `  run ${i + 1}/${runs}: --no-journal ${Math.round(off[i]?.wallMs ?? 0)} ms | journal ${Math.round(on[i]?.wallMs ?? 0)} ms`,
      );
    }
    const wall = (/** @type {import('../lib/pair.mjs').Sample[]} */ xs) => median(xs.map((x) => x.wallMs));
    const work = (/** @type {import('../lib/pair.mjs').Sample[]} */ xs) => median(xs.map((x) => x.workMs));
    figures.add({
      section: pair.section,
      name: `${pair.label}, journal, wall time`,
      unit: 'ms',
      value: wall(on),
      comparison: wall(off),
      comparisonName: '--no-journal',
      // Issue 29: the journal at most 1.10 × --no-journal (issue 9 asked 1.15).
      target: { of: 'ratio', op: '<=', limit: 1.1 },
      note: pairSpread(
        on.map((x) => x.wallMs),
        off.map((x) => x.wallMs),
      ),
    });
    figures.add({
      section: pair.section,
      name: `${pair.label}, journal, work time (no process start)`,
      unit: 'ms',
      value: work(on),
      comparison: work(off),
      comparisonName: '--no-journal',
    });
  }
}

/**
 * Figure 7: one expression reshaping `count` records, the compiled engine against the same function written
 * by hand in JavaScript (target: at most 3 times its time) and against jsonata itself (the speed-up), in one
 * child process (bench/lib/expr-child.mjs), the sides alternating.
 * @param {import('../lib/section-context.mjs').SectionContext} ctx
 * @param {number} count
 * @param {number} runs
 */
export async function benchExpression({ figures, log }, count, runs) {
  log(`expression: reshaping ${count} records, compiled vs hand-written JS vs jsonata, ${runs * 2 + 1} runs`);
  const child = await runNode([
    '--expose-gc',
    'bench/lib/expr-child.mjs',
    String(count),
    String(runs * 2 + 1),
    String(runs),
  ]);
  const r =
    /** @type {{ compiledMs: number, handMs: number, jsonataMs: number, coldCompiledMs: number, coldHandMs: number }} */ (
      JSON.parse(child.stdout)
    );
  log(
    `  compiled ${Math.round(r.compiledMs)} ms, by hand ${Math.round(r.handMs)} ms, jsonata ${Math.round(r.jsonataMs)} ms`,
  );
  const label = `reshape ${count.toLocaleString('en')} records (one transform)`;
  figures.add({
    section: '7 expression',
    name: `${label}, compiled`,
    unit: 'ms',
    value: r.compiledMs,
    comparison: r.handMs,
    comparisonName: 'hand-written JS',
    target: { of: 'ratio', op: '<=', limit: 3 },
  });
  figures.add({
    section: '7 expression',
    name: `${label}, compiled, first evaluation (cold)`,
    unit: 'ms',
    value: r.coldCompiledMs,
    comparison: r.coldHandMs,
    comparisonName: 'hand-written JS, first call',
  });
  figures.add({
    section: '7 expression',
    name: `${label}, jsonata (ratio: the compiled speed-up)`,
    unit: 'ms',
    value: r.jsonataMs,
    comparison: r.compiledMs,
    comparisonName: 'compiled',
  });
}

/**
 * A recipe's three figures against its hand-written script: wall time (target: at most `wallRatio` times the
 * script's), work time, and peak RSS with `rss`'s target and note when it has them.
 * @param {import('../lib/figures.mjs').Figures} figures
 * @param {string} section
 * @param {string} label
 * @param {Awaited<ReturnType<typeof comparePair>>} res
 * @param {number} wallRatio
 * @param {Pick<import('../lib/figures.mjs').FigureInput, 'target' | 'note'>} [rss]
 */
function addAgainstScript(figures, section, label, res, wallRatio, rss = {}) {
  /**
   * @param {string} name
   * @param {string} unit
   * @param {'wallMs' | 'workMs' | 'maxRssMb'} key
   */
  const against = (name, unit, key) => ({
    section,
    name: `${label}, ${name}`,
    unit,
    value: res.recipe[key],
    comparison: res.script[key],
    comparisonName: 'script',
  });
  const walls = (/** @type {import('../lib/pair.mjs').Summary} */ side) => side.runs.map((x) => x.wallMs ?? Number.NaN);
  figures.add({
    ...against('wall time', 'ms', 'wallMs'),
    target: { of: 'ratio', op: '<=', limit: wallRatio },
    note: pairSpread(walls(res.recipe), walls(res.script)),
  });
  figures.add(against('work time (no process start)', 'ms', 'workMs'));
  figures.add({ ...against('peak RSS', 'MB', 'maxRssMb'), ...rss });
}
