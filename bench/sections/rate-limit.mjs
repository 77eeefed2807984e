// The rate-limit figure (issue 29): a foreach of `n` gets at concurrency 32 against `recipe serve
// --rate-limit 50`, with the client's rate adaptation (today's default) and without it (the client before:
// retries with backoff on each 429, nothing shared between items). Both sides alternate, runs times each.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startServer } from '../lib/service.mjs';
import { median, runNode } from '../lib/proc.mjs';

/** @typedef {import('../lib/section-context.mjs').SectionContext} SectionContext */

/**
 * @param {SectionContext} ctx
 * @param {number} n  gets in the fan-out
 * @param {number} runs  runs per side
 */
export async function benchRateLimit({ figures, log, tmp }, n, runs, limit = 50) {
  log(`rate limit: starting the service with --rate-limit ${limit} and ${n} contacts`);
  const server = await startServer({ seedSize: n, holdIndex: true, rateLimit: limit });
  try {
    /** @type {string[]} */
    const ids = [];
    /** @type {string | null | undefined} */
    let after;
    while (ids.length < n) {
      const res = await server.execute({
        entity: 'contacts',
        action: 'list',
        params: { limit: 100, ...(after && { after }) },
      });
      if (res.status === 429) {
        await new Promise((r) => setTimeout(r, 1000));
        continue;
      }
      const page = /** @type {import('../lib/service.mjs').ListEnvelope} */ (res.json);
      ids.push(...page.result.map((c) => c.id));
      after = page.connector_metadata.end_cursor;
      if (!page.connector_metadata.has_next_page) break;
    }
    const inputs = join(tmp, 'rate-ids.json');
    writeFileSync(inputs, JSON.stringify({ ids: ids.slice(0, n) }));
    /** @type {Record<'on' | 'off', Array<{ wallMs: number, requests: number, tooMany: number, status: string, count: number | null }>>} */
    const samples = { on: [], off: [] };
    for (let i = 0; i < runs; i++) {
      for (const mode of /** @type {const} */ (['off', 'on'])) {
        // A full bucket for each run: the service refills at `limit` a second.
        await new Promise((r) => setTimeout(r, 1500));
        const r = await runNode(['bench/lib/rate-child.mjs', inputs, mode], { env: server.env });
        const s = JSON.parse(r.stdout);
        samples[mode].push(s);
        log(
          `  adaptation ${mode}: ${s.status}, ${s.count ?? 0}/${n} done in ${Math.round(s.wallMs)} ms, ${s.requests} requests, ${s.tooMany} answered 429`,
        );
      }
    }
    const perSecond = (/** @type {typeof samples.on} */ xs) =>
      median(xs.map((s) => ((s.count ?? 0) * 1000) / s.wallMs));
    const share = (/** @type {typeof samples.on} */ xs) => median(xs.map((s) => (100 * s.tooMany) / s.requests));
    const label = `foreach ${n.toLocaleString('en')} gets, concurrency 32, service at ${limit}/s`;
    const failedOff = samples.off.filter((s) => s.status !== 'ok').length;
    figures.add({
      section: '9 rate limit',
      name: `${label}, gets per second`,
      unit: '/s',
      value: perSecond(samples.on),
      comparison: perSecond(samples.off),
      comparisonName: 'no adaptation',
      target: { of: 'value', op: '>=', limit: 0.9 * limit },
      ...(failedOff > 0 && {
        note: `without adaptation ${failedOff} of ${runs} runs failed (a get spent all its attempts on 429s)`,
      }),
    });
    figures.add({
      section: '9 rate limit',
      name: `${label}, requests answered 429`,
      unit: '%',
      value: share(samples.on),
      comparison: share(samples.off),
      comparisonName: 'no adaptation',
      target: { of: 'value', op: '<=', limit: 2 },
    });
  } finally {
    await server.stop();
  }
}
