// Figure 11: the context store's index build. A service loaded from a fixtures file of `size` contacts (a
// database file, as `recipe serve` keeps one), timed from listening to contacts Ready. With --base DIR (a
// built checkout of another revision: DIR/dist), that revision's service builds the same fixtures
// alternately with this one, so the machine's load hits both sides alike.
import { rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { writeContactsFixture } from '../lib/contacts-fixture.mjs';
import { median } from '../lib/proc.mjs';
import { startServer } from '../lib/service.mjs';

/** The index build target at 100,000 contacts (issue 29), in ms. */
const TARGET_MS = 15_000;

/**
 * Loads the fixtures into a fresh database file and waits until contacts are Ready.
 * @param {string} fixtures
 * @param {string} db
 * @param {string | undefined} dist  another build's dist/index.js
 * @param {number | undefined} batch  records per build step
 * @returns {Promise<{ loadMs: number, indexMs: number, previewMs: number | null, cpuMs: number }>}
 */
async function buildOnce(fixtures, db, dist, batch) {
  for (const f of [db, `${db}-wal`, `${db}-shm`]) rmSync(f, { force: true });
  const server = await startServer({ fixtures, db, ...(dist && { dist }), ...(batch && { indexBatch: batch }) });
  try {
    const t0 = performance.now();
    const cpu0 = await server.cpuMs();
    /** @type {number | null} */
    let previewMs = null;
    for (;;) {
      const r = await server.readiness('contacts');
      if (previewMs === null && (r?.status === 'Preview' || r?.status === 'Ready')) previewMs = performance.now() - t0;
      if (r?.status === 'Ready') {
        const indexMs = performance.now() - t0;
        return { loadMs: server.startMs, indexMs, previewMs, cpuMs: (await server.cpuMs()) - cpu0 };
      }
      if (performance.now() - t0 > 30 * 60_000) throw new Error(`contacts not Ready after 30 min (${r?.status})`);
      await new Promise((res) => setTimeout(res, 100));
    }
  } finally {
    await server.stop();
    for (const f of [db, `${db}-wal`, `${db}-shm`]) rmSync(f, { force: true });
  }
}

/**
 * @param {import('../lib/section-context.mjs').SectionContext} ctx
 * @param {number} size  contacts
 * @param {number} runs  builds per side
 * @param {{ baseDir?: string, batches: number[] }} compare  a built checkout to compare with, or two batch sizes
 *   ([ours, comparison]); one batch size sets it for both sides
 */
export async function benchIndexBuild({ figures, log, tmp }, size, runs, { baseDir, batches }) {
  const fixtures = join(tmp, `index-contacts-${size}.json`);
  await writeContactsFixture(fixtures, size);
  const db = join(tmp, `index-${size}.db`);
  const baseDist = baseDir && resolve(baseDir, 'dist', 'index.js');
  const [ourBatch, theirBatch = batches.length > 1 ? undefined : ourBatch] = batches;
  const compare = Boolean(baseDist) || batches.length > 1;
  const comparisonName = baseDist ? `--base ${baseDir}` : `batch ${theirBatch}`;
  /** @type {number[]} */
  const ours = [];
  /** @type {number[]} */
  const theirs = [];
  /** @type {number[]} */
  const oursCpu = [];
  /** @type {number[]} */
  const theirsCpu = [];
  /** @param {{ loadMs: number, indexMs: number, previewMs: number | null, cpuMs: number }} b */
  const fmt = (b) =>
    `index Ready after ${Math.round(b.indexMs)} ms, ${Math.round(b.cpuMs)} ms CPU (Preview ${Math.round(b.previewMs ?? 0)} ms; load ${Math.round(b.loadMs)} ms)`;
  for (let i = 0; i < runs; i++) {
    if (compare) {
      const b = await buildOnce(fixtures, db, baseDist, theirBatch);
      theirs.push(b.indexMs);
      theirsCpu.push(b.cpuMs);
      log(`  run ${i + 1}/${runs} ${comparisonName}: ${fmt(b)}`);
    }
    const o = await buildOnce(fixtures, db, undefined, ourBatch);
    ours.push(o.indexMs);
    oursCpu.push(o.cpuMs);
    log(`  run ${i + 1}/${runs} this${ourBatch ? `, batch ${ourBatch}` : ''}: ${fmt(o)}`);
  }
  const n = size.toLocaleString('en');
  figures.add({
    section: '11 index',
    name: `index build to Ready at ${n} (after load)`,
    unit: 'ms',
    value: median(ours),
    ...(compare && { comparison: median(theirs), comparisonName }),
    ...(size === 100_000 && { target: { of: 'value', op: '<', limit: TARGET_MS } }),
  });
  // The service's CPU time over the same span: what the build costs, less blurred by other processes.
  figures.add({
    section: '11 index',
    name: `index build at ${n}, service CPU time`,
    unit: 'ms',
    value: median(oursCpu),
    ...(compare && { comparison: median(theirsCpu), comparisonName }),
  });
}
