// Figure 9 (issue 16): `recipe console` on a journal of 10,000 runs: its start (until it prints its URL,
// and until the first runs page has answered: the journal is opened on that first visit) against the same
// console on an empty journal, and the runs list's answer time there (first page, a page deep in the list
// with the keyset cursor, and a filtered page) against the bare /api/info route of the same console.
import { spawn } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { median } from '../lib/proc.mjs';

const ROOT = new URL('../../', import.meta.url).pathname;
const RECIPES = ['ticket-triage', 'stale-deals-follow-up', 'pipeline-report', 'company-rollup', 'contacts-export'];
/** HTTP requests per list figure (after 5 warm-up requests). */
const SAMPLES = 50;

/**
 * A journal of `count` runs written through the journal's own interface (begin, steps, calls, finish), each
 * shaped like a run of a shipped recipe: a paginate, a transform and a foreach of two writes, 4 calls;
 * one run in ten failed, one in twenty a dry run, a minute apart.
 * @param {string} path
 * @param {number} count
 */
async function makeJournal(path, count) {
  const { openJournal } = await import(join(ROOT, 'dist/journal/index.js'));
  const store = openJournal(path);
  const base = Date.UTC(2026, 0, 1);
  for (let i = 0; i < count; i++) {
    const recipe = RECIPES[i % RECIPES.length] ?? 'ticket-triage';
    const file = join(ROOT, `recipes/${recipe}.yaml`);
    const t = base + i * 60_000;
    const failed = i % 10 === 3;
    const run = await store.begin({
      run_id: `bench-${String(i).padStart(6, '0')}`,
      recipe,
      file,
      files: [{ path: file, sha256: '0'.repeat(64) }],
      inputs: { owner_id: '1001' },
      started_at: t,
      dry_run: i % 20 === 7,
      options: {},
    });
    const site = (/** @type {string} */ step_path, /** @type {number} */ line) => ({
      step_path,
      file,
      line,
      column: 5,
      pointer: '/steps/0',
    });
    const call = (/** @type {string} */ step_path, /** @type {number} */ n, /** @type {boolean} */ write) => ({
      ...site(step_path, 20),
      call_key: `${step_path}#${n}`,
      kind: 'execute',
      method: 'POST',
      path: '/api/v1/integrations/connectors/c1/execute',
      entity: write ? 'notes' : 'tickets',
      action: write ? 'create' : 'list',
      write,
      idempotency_key: write ? `k-${i}-${n}` : null,
      request: '{"entity":"tickets","action":"list","params":{"limit":100}}',
    });
    const outcome = (/** @type {string} */ key, /** @type {number} */ at, /** @type {boolean} */ bad) => ({
      call_key: key,
      state: bad ? 'failed' : 'answered',
      status: bad ? 503 : 200,
      answer: bad ? null : '{"status":"success","result":{"id":"1"}}',
      error: bad ? '{"code":"C005","params":{"status":503}}' : null,
      doubt: false,
      redacted: false,
      retries: bad ? 2 : 0,
      sent_at: at,
      latency_ms: 12,
      settled_by: null,
    });
    const step = (/** @type {string} */ id, /** @type {string} */ kind, /** @type {number} */ at, status = 'ok') => ({
      ...site(id, 22),
      step_id: id,
      kind,
      depth: 0,
      status,
      started_at: at,
      duration_ms: 30,
      error_code: status === 'failed' ? 'C005' : null,
    });
    run.step(step('tickets', 'paginate', t));
    run.record(call('tickets', 0, false), outcome('tickets#0', t + 5, false));
    run.step(step('unowned', 'transform', t + 40));
    run.step(step('triaged', 'foreach', t + 50, failed ? 'failed' : 'ok'));
    for (let k = 0; k < 2; k++) {
      const c = call(`triaged[${k}].note`, 0, true);
      await run.intend(c);
      run.record(c, outcome(c.call_key, t + 60 + k * 15, failed && k === 1));
    }
    await run.finish({
      status: failed ? 'failed' : 'ok',
      ended_at: t + 120,
      duration_ms: 120,
      outputs: failed ? {} : { triaged: 2 },
      error: failed ? { code: 'C005', message: 'notes.create: HTTP 503', file, line: 40, column: 9 } : null,
      report: '{}',
      failed_call: failed ? 'triaged[1].note#0' : null,
      requests: 3,
      writes: 2,
      replayed_calls: 0,
    });
  }
  await store.close();
}

/**
 * Starts `recipe console --journal PATH --port 0`; resolves when it printed its URL.
 * @param {string} journal
 * @param {string} cwd
 */
function startConsole(journal, cwd) {
  const t0 = performance.now();
  const child = spawn(process.execPath, [join(ROOT, 'bin/recipe.js'), 'console', '--journal', journal, '--port', '0'], {
    cwd,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, NO_COLOR: '1' },
  });
  return /** @type {Promise<{ url: string, listeningMs: number, stop: () => Promise<void> }>} */ (
    new Promise((resolve, reject) => {
      let out = '';
      child.stdout.on('data', (/** @type {Buffer} */ d) => {
        out += d.toString();
        const m = /console at (http:\/\/\S+?)\/?\s/.exec(out);
        if (!m?.[1]) return;
        resolve({
          url: m[1],
          listeningMs: performance.now() - t0,
          stop: () =>
            new Promise((done) => {
              child.once('close', () => done(undefined));
              child.kill('SIGTERM');
            }),
        });
      });
      child.once('error', reject);
      child.once('close', (code) => reject(new Error(`recipe console exited (${code}) before listening`)));
    })
  );
}

/**
 * Median ms of GET url (after warm-up), the body read whole.
 * @param {string} url
 */
async function medianGet(url) {
  /** @type {number[]} */
  const times = [];
  for (let i = 0; i < SAMPLES + 5; i++) {
    const t0 = performance.now();
    const res = await fetch(url);
    await res.arrayBuffer();
    if (!res.ok) throw new Error(`GET ${url}: ${res.status}`);
    if (i >= 5) times.push(performance.now() - t0);
  }
  return median(times);
}

/**
 * Start until listening, and until the first runs page answered, on `journal`.
 * @param {string} journal
 * @param {string} cwd
 */
async function startFigures(journal, cwd) {
  const t0 = performance.now();
  const c = await startConsole(journal, cwd);
  const res = await fetch(`${c.url}/api/runs?limit=50`);
  await res.arrayBuffer();
  const firstPageMs = performance.now() - t0;
  await c.stop();
  return { listeningMs: c.listeningMs, firstPageMs };
}

/**
 * Adds the console figures.
 * @param {import('../lib/section-context.mjs').SectionContext} ctx
 * @param {number} runs
 * @param {number} count
 */
export async function benchConsole({ figures, log, tmp }, runs, count = 10_000) {
  const dir = join(tmp, 'console');
  mkdirSync(dir, { recursive: true });
  const big = join(dir, 'runs.db');
  const empty = join(dir, 'empty.db');
  log(`console: writing a journal of ${count.toLocaleString('en')} runs through the journal interface`);
  const t0 = performance.now();
  // Every run's end is made durable (an fsync): on a disk 10,000 of them take minutes, so the journal is
  // written in memory-backed /dev/shm where there is one, then copied to the scratch folder the console reads.
  const shm = existsSync('/dev/shm') ? mkdtempSync('/dev/shm/recipe-bench-console-') : undefined;
  try {
    await makeJournal(shm ? join(shm, 'runs.db') : big, count);
    if (shm) copyFileSync(join(shm, 'runs.db'), big);
  } finally {
    if (shm) rmSync(shm, { recursive: true, force: true });
  }
  await makeJournal(empty, 0);
  log(`  written in ${Math.round(performance.now() - t0)} ms`);

  log(`console: start on ${count.toLocaleString('en')} runs and on an empty journal, ${runs * 2 + 1} runs each`);
  /** @type {{ listeningMs: number, firstPageMs: number }[]} */
  const onBig = [];
  /** @type {{ listeningMs: number, firstPageMs: number }[]} */
  const onEmpty = [];
  for (let i = 0; i < runs * 2 + 1; i++) {
    onBig.push(await startFigures(big, dir));
    onEmpty.push(await startFigures(empty, dir));
  }
  const startBig = median(onBig.map((s) => s.listeningMs));
  const startEmpty = median(onEmpty.map((s) => s.listeningMs));
  const firstBig = median(onBig.map((s) => s.firstPageMs));
  const firstEmpty = median(onEmpty.map((s) => s.firstPageMs));
  log(
    `  listening ${Math.round(startBig)} ms (empty ${Math.round(startEmpty)} ms); first runs page ${Math.round(firstBig)} ms (empty ${Math.round(firstEmpty)} ms)`,
  );
  figures.add({
    section: '9 console',
    name: `recipe console start, ${count.toLocaleString('en')} runs (until listening)`,
    unit: 'ms',
    value: startBig,
    comparison: startEmpty,
    comparisonName: 'empty journal',
    target: { of: 'value', op: '<', limit: 1000 },
  });
  figures.add({
    section: '9 console',
    name: `recipe console start, ${count.toLocaleString('en')} runs (until the first runs page answered)`,
    unit: 'ms',
    value: firstBig,
    comparison: firstEmpty,
    comparisonName: 'empty journal',
    target: { of: 'value', op: '<', limit: 1000 },
  });

  log(`console: runs list answer time on ${count.toLocaleString('en')} runs, ${SAMPLES} requests each`);
  const c = await startConsole(big, dir);
  try {
    const info = await medianGet(`${c.url}/api/info`);
    const first = await medianGet(`${c.url}/api/runs?limit=50`);
    // A page deep in the list: the cursor the list itself hands out after 9,000 runs.
    let before = '';
    for (let seen = 0; seen < count - 1000; seen += 200) {
      const res = await fetch(`${c.url}/api/runs?limit=200${before ? `&before=${before}` : ''}`);
      before = /** @type {{ next: string }} */ (await res.json()).next;
    }
    const deep = await medianGet(`${c.url}/api/runs?limit=50&before=${before}`);
    const filtered = await medianGet(`${c.url}/api/runs?limit=50&status=failed&recipe=company-rollup`);
    log(
      `  /api/info ${info.toFixed(1)} ms; runs first page ${first.toFixed(1)} ms, page after ${count - 1000} runs ${deep.toFixed(1)} ms, failed + recipe ${filtered.toFixed(1)} ms`,
    );
    for (const [name, value] of /** @type {[string, number][]} */ ([
      ['first page of 50', first],
      [`a page of 50 after ${(count - 1000).toLocaleString('en')} runs (keyset cursor)`, deep],
      ['failed runs of one recipe, 50', filtered],
    ]))
      figures.add({
        section: '9 console',
        name: `runs list, ${count.toLocaleString('en')} runs: ${name}`,
        unit: 'ms',
        value,
        comparison: info,
        comparisonName: '/api/info',
        target: { of: 'value', op: '<', limit: 100 },
      });
  } finally {
    await c.stop();
  }
}
