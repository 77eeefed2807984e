// Figure 1: engine overhead (a recipe paging through every contact against a hand-written undici script),
// and streaming mode's peak RSS. Figure 2: foreach fan-out against the same script with the same concurrency.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { comparePair, runRecipe, runScript } from '../lib/pair.mjs';

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
    () => runRecipe('bench/recipes/page-contacts.yaml', env, count),
    log,
  );
  const label = `page ${count.toLocaleString('en')} contacts`;
  figures.add({
    section,
    name: `${label}, wall time`,
    unit: 'ms',
    value: res.recipe.wallMs,
    comparison: res.script.wallMs,
    comparisonName: 'script',
    target: { of: 'ratio', op: '<=', limit: 1.1 },
  });
  figures.add({
    section,
    name: `${label}, work time (no process start)`,
    unit: 'ms',
    value: res.recipe.workMs,
    comparison: res.script.workMs,
    comparisonName: 'script',
  });
  figures.add({
    section,
    name: `${label}, peak RSS`,
    unit: 'MB',
    value: res.recipe.maxRssMb,
    comparison: res.script.maxRssMb,
    comparisonName: 'script',
  });
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
    () => runRecipe('bench/recipes/stream-contacts.yaml', env, undefined),
    log,
  );
  const label = `stream ${count.toLocaleString('en')} contacts`;
  figures.add({
    section,
    name: `${label}, wall time`,
    unit: 'ms',
    value: res.recipe.wallMs,
    comparison: res.script.wallMs,
    comparisonName: 'script',
  });
  figures.add({
    section,
    name: `${label}, peak RSS`,
    unit: 'MB',
    value: res.recipe.maxRssMb,
    comparison: res.script.maxRssMb,
    comparisonName: 'script',
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
    () => runRecipe('bench/recipes/fan-out.yaml', env, n, ['--inputs', inputs]),
    log,
  );
  const label = `foreach ${n.toLocaleString('en')} gets, concurrency 16`;
  figures.add({
    section: '2 fan-out',
    name: `${label}, wall time`,
    unit: 'ms',
    value: res.recipe.wallMs,
    comparison: res.script.wallMs,
    comparisonName: 'script',
    target: { of: 'ratio', op: '<=', limit: 1.1 },
  });
  figures.add({
    section: '2 fan-out',
    name: `${label}, work time (no process start)`,
    unit: 'ms',
    value: res.recipe.workMs,
    comparison: res.script.workMs,
    comparisonName: 'script',
  });
  figures.add({
    section: '2 fan-out',
    name: `${label}, peak RSS`,
    unit: 'MB',
    value: res.recipe.maxRssMb,
    comparison: res.script.maxRssMb,
    comparisonName: 'script',
  });
  return res;
}
