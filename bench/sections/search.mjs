// Figure 4: search. For each size, a service loaded with that many contacts (fixtures, no other records), the
// context store index built to Ready, then 200 queries of each kind through execute, one at a time, timed at
// the client (performance.now around the HTTP round trip): contacts.context_store_search (the service's own
// meta.took_ms is kept too) and the CRM's own contacts.api_search. The loaded database is kept in a cache
// folder and reused by later runs (building 1,000,000 contacts takes minutes).
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { contactAt, prng, writeContactsFixture } from '../lib/contacts-fixture.mjs';
import { median, percentile } from '../lib/proc.mjs';
import { startServer } from '../lib/service.mjs';

/** @typedef {import('../lib/contacts-fixture.mjs').Contact} Contact */
/** @typedef {import('../lib/section-context.mjs').Log} Log */

const QUERIES = 200;
// Query i uses sample i, and the `in` kind samples QUERIES + 4i … QUERIES + 4i + 3 as well.
const SAMPLES = QUERIES * 5;
const LIMIT = 25;
/** The application of the cached databases: a reopened file keeps its organization and connector. */
const CREDENTIALS = { clientId: 'bench-search', clientSecret: 'bench-search-secret-0123456789abcdef' };
export const OPS = /** @type {const} */ ([
  'eq',
  'in',
  'range+sort',
  'like',
  'fuzzy',
  'keyword',
  'api EQ',
  'api IN',
  'api range+sort',
  'api CONTAINS_TOKEN',
]);
/** @typedef {typeof OPS[number]} Op */
/** @type {Partial<Record<Op, number>>} */
const TARGET_P50 = {
  eq: 5,
  in: 5,
  'range+sort': 10,
  like: 50,
  fuzzy: 50,
  keyword: 50,
  'api EQ': 20,
  'api IN': 20,
  'api range+sort': 20,
  'api CONTAINS_TOKEN': 50,
};

/**
 * One query kind at one size: client round-trip p50/p99 (ms), the service's own took_ms p50, queries run.
 * @typedef {{ p50: number, p99: number, tookP50: number | null, queries: number }} OpStats
 */

/**
 * One size's results; `cached` when the database was reused (then loadMs is 0 and indexMs only the wait).
 * @typedef {{ size: number, ops: Record<Op, OpStats>, loadMs: number, indexMs: number, cached: boolean }} SizeResult
 */

/**
 * SAMPLES distinct existing contacts among the first `size` (replaying the fixture's PRNG), shuffled.
 * @param {number} size  at least SAMPLES
 */
function samples(size) {
  const pick = prng(7);
  /** @type {Set<number>} */
  const wanted = new Set();
  while (wanted.size < SAMPLES) wanted.add(1 + Math.floor(pick() * size));
  const rnd = prng(42);
  /** @type {Contact[]} */
  const out = [];
  for (let i = 1; i <= size; i++) {
    const c = contactAt(i, rnd);
    if (wanted.has(i)) out.push(c);
  }
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(pick() * (i + 1));
    const t = /** @type {Contact} */ (out[i]);
    out[i] = /** @type {Contact} */ (out[j]);
    out[j] = t;
  }
  return out;
}

/**
 * The five emails of the `in` queries number i: sample i and four more.
 * @param {number} i
 * @param {Contact[]} s
 */
function emailsFor(i, s) {
  return s
    .slice(QUERIES + 4 * i, QUERIES + 4 * i + 4)
    .map((x) => x.properties.email)
    .concat(/** @type {Contact} */ (s[i]).properties.email);
}

/**
 * The 7-day window from a sample's create date.
 * @param {Contact} c
 */
function week(c) {
  const from = new Date(c.createdAt);
  return { from: from.toISOString(), to: new Date(from.getTime() + 7 * 86_400_000).toISOString() };
}

/**
 * The execute action and params of query kind `op` number `i`.
 * @param {Op} op
 * @param {number} i
 * @param {Contact[]} s  the samples
 * @returns {{ action: string, params: Record<string, unknown> }}
 */
function requestFor(op, i, s) {
  const c = s[i];
  if (c === undefined) throw new Error(`no sample ${i} of ${s.length}`);
  const p = c.properties;
  /** @param {Record<string, unknown>} query */
  const cs = (query) => ({ action: 'context_store_search', params: { query, limit: LIMIT } });
  /** @param {Record<string, unknown>[]} filters @param {Record<string, unknown>} [extra] */
  const api = (filters, extra = {}) => ({
    action: 'api_search',
    params: { filterGroups: [{ filters }], limit: LIMIT, ...extra },
  });
  switch (op) {
    case 'eq':
      return cs({ filter: { eq: { 'properties.email': p.email } } });
    case 'in':
      return cs({ filter: { in: { 'properties.email': emailsFor(i, s) } } });
    case 'range+sort': {
      const w = week(c);
      return cs({
        filter: { gte: { 'properties.createdate': w.from }, lt: { 'properties.createdate': w.to } },
        sort: [{ 'properties.createdate': 'desc' }],
      });
    }
    case 'like':
      return cs({ filter: { like: { 'properties.email': `%@${p.email.split('@')[1]}` } } });
    case 'fuzzy':
      return cs({ filter: { fuzzy: { 'properties.lastname': p.lastname.slice(0, 4) } } });
    case 'keyword':
      return cs({ filter: { keyword: { 'properties.firstname': p.firstname } } });
    case 'api EQ':
      return api([{ propertyName: 'email', operator: 'EQ', value: p.email }]);
    case 'api IN':
      return api([{ propertyName: 'email', operator: 'IN', values: emailsFor(i, s) }]);
    case 'api range+sort': {
      const w = week(c);
      return api(
        [
          { propertyName: 'createdate', operator: 'GTE', value: w.from },
          { propertyName: 'createdate', operator: 'LT', value: w.to },
        ],
        { sorts: [{ propertyName: 'createdate', direction: 'DESCENDING' }] },
      );
    }
    case 'api CONTAINS_TOKEN':
      return api([{ propertyName: 'lastname', operator: 'CONTAINS_TOKEN', value: p.lastname }]);
    default:
      throw new Error(op);
  }
}

/**
 * The records an answer holds: context_store_search's data, api_search's result.
 * @param {unknown} json
 */
function recordsOf(json) {
  const result = /** @type {{ result: unknown }} */ (json).result;
  return Array.isArray(result) ? result : /** @type {{ data: unknown[] }} */ (result).data;
}

/** What decides how the index is laid out on disk: a change to any of them builds the cached databases anew. */
const LAYOUT_FILES = [
  ...['migrations.js', 'sqlite-values.js', 'sqlite-like.js', 'index-writer.js', 'indexer.js'].map(
    (f) => `context-store/${f}`,
  ),
  'store/sqlite.js',
].map((f) => new URL(`../../dist/service/${f}`, import.meta.url));

/**
 * The database file of a size: built once from the fixtures, then reused. The name carries a digest of the
 * fixture generator and of the code that lays the index out, so a database built by other code is not reused
 * (bench/README.md: one kept from an earlier revision answered `in` and `range+sort` 4 to 5 times slower than
 * a fresh build). BENCH_DB_CACHE chooses the folder.
 * @param {number} size
 */
function cachedDbPath(size) {
  const dir = process.env.BENCH_DB_CACHE ?? join(tmpdir(), 'recipe-bench-cache');
  mkdirSync(dir, { recursive: true });
  const hash = createHash('sha256').update(readFileSync(new URL('../lib/contacts-fixture.mjs', import.meta.url)));
  for (const f of LAYOUT_FILES) hash.update(readFileSync(f));
  const digest = hash.digest('hex').slice(0, 12);
  return join(dir, `contacts-${size}-${digest}.db`);
}

/**
 * Waits until the contacts' context store index is Ready; resolves the time it took (ms).
 * @param {import('../lib/service.mjs').ServiceHandle} server
 * @param {Log} log
 * @param {number} timeoutMs
 */
async function waitReady(server, log, timeoutMs) {
  const t0 = performance.now();
  let lastLog = t0;
  for (;;) {
    // A build can outlast the 15-minute token: take a new one when it expires.
    const r = await server.readiness('contacts').catch(async (/** @type {Error} */ err) => {
      if (!/HTTP 401/.test(err.message)) throw err;
      await server.login();
      return server.readiness('contacts');
    });
    if (r?.status === 'Ready') return performance.now() - t0;
    const now = `${r?.status} ${r?.entity_count ?? 0}`;
    if (performance.now() - lastLog > 15_000) {
      log(`    index: ${now}`);
      lastLog = performance.now();
    }
    if (performance.now() - t0 > timeoutMs) throw new Error(`context store not Ready after ${timeoutMs} ms (${now})`);
    await new Promise((res) => setTimeout(res, 1000));
  }
}

/**
 * Builds a service of `size` contacts and runs every query kind; {ops: {op: {p50, p99, tookP50}}, loadMs, indexMs}.
 * @param {number} size
 * @param {{ log: Log, tmp: string, budgetMs?: number }} options
 * @returns {Promise<SizeResult>}
 */
export async function searchAtSize(size, { log, tmp, budgetMs = 30_000 }) {
  // samples() needs SAMPLES distinct contacts: with fewer, its loop would never end.
  if (size < SAMPLES) throw new Error(`search sizes must be at least ${SAMPLES} contacts, got ${size}`);
  const db = cachedDbPath(size);
  const cached = existsSync(db);
  let server;
  let indexMs;
  if (cached) {
    log(`search at ${size.toLocaleString('en')} contacts: reusing ${db}`);
    server = await startServer({ db, ...CREDENTIALS });
    indexMs = await waitReady(server, log, 60 * 60_000);
  } else {
    // Built under another name and renamed once Ready and closed, so a run stopped half-way leaves no cache.
    const building = `${db}.building`;
    for (const f of [building, `${building}-wal`, `${building}-shm`]) rmSync(f, { force: true });
    const file = join(tmp, `contacts-${size}.json`);
    log(`search at ${size.toLocaleString('en')} contacts: writing fixtures, loading, indexing (kept in ${db})`);
    await writeContactsFixture(file, size);
    const builder = await startServer({ fixtures: file, db: building, ...CREDENTIALS });
    indexMs = await waitReady(builder, log, 60 * 60_000);
    log(`  loaded in ${Math.round(builder.startMs)} ms, index Ready after ${Math.round(indexMs)} ms more`);
    await builder.stop();
    renameSync(building, db);
    server = await startServer({ db, ...CREDENTIALS });
    await waitReady(server, log, 60 * 60_000);
  }
  try {
    const s = samples(size);
    // Filled for every kind by the loop below.
    const ops = /** @type {Record<Op, OpStats>} */ ({});
    for (const op of OPS) {
      /** @type {number[]} */
      const times = [];
      /** @type {number[]} */
      const took = [];
      const opStart = performance.now();
      for (let i = 0; i < QUERIES; i++) {
        // A slow kind stops after its time budget (at least 20 queries), so one bad plan cannot eat the run.
        if (i >= 20 && performance.now() - opStart > budgetMs) break;
        const { action, params } = requestFor(op, i, s);
        let t0 = performance.now();
        let res = await server.execute({ entity: 'contacts', action, params });
        if (res.status === 401) {
          // The token outlived its 15 minutes: a new one, and the query again.
          await server.login();
          t0 = performance.now();
          res = await server.execute({ entity: 'contacts', action, params });
        }
        times.push(performance.now() - t0);
        if (res.status !== 200) throw new Error(`${op}: HTTP ${res.status} ${res.text.slice(0, 500)}`);
        const n = recordsOf(res.json).length;
        const exact = op === 'eq' || op === 'api EQ' ? 1 : op === 'api IN' ? 5 : null;
        if (n === 0 || (exact !== null && n !== exact))
          throw new Error(`${op} query ${i} found ${n} records: ${JSON.stringify(params)}`);
        if (action === 'context_store_search') {
          const { result } = /** @type {import('../lib/service.mjs').SearchEnvelope} */ (res.json);
          if (typeof result.meta.took_ms === 'number') took.push(result.meta.took_ms);
        }
      }
      const stats = {
        p50: median(times),
        p99: percentile(times, 99),
        tookP50: took.length ? median(took) : null,
        queries: times.length,
      };
      ops[op] = stats;
      log(
        `  ${op.padEnd(18)} p50 ${stats.p50.toFixed(2)} ms, p99 ${stats.p99.toFixed(2)} ms over ${times.length} queries${stats.tookP50 === null ? '' : ` (service took_ms p50 ${stats.tookP50})`}`,
      );
    }
    return { size, ops, loadMs: cached ? 0 : server.startMs, indexMs, cached };
  } finally {
    await server.stop();
  }
}

/**
 * The smallest and the largest size's results (the first and the last).
 * @param {SizeResult[]} bySize
 */
function ends(bySize) {
  const small = bySize[0];
  const big = bySize[bySize.length - 1];
  if (small === undefined || big === undefined) throw new Error('no search sizes');
  return { small, big };
}

/**
 * Runs every size; adds figures at the largest size (compared with the smallest) and returns the scaling table.
 * @param {import('../lib/section-context.mjs').SectionContext & { budgetMs: number }} ctx
 * @param {number[]} sizes
 */
export async function benchSearch({ figures, log, tmp, budgetMs }, sizes) {
  /** @type {SizeResult[]} */
  const bySize = [];
  for (const size of sizes) bySize.push(await searchAtSize(size, { log, tmp, budgetMs }));
  const { small, big } = ends(bySize);
  /** @param {number} x */
  const n = (x) => x.toLocaleString('en');
  for (const op of OPS) {
    const limit = TARGET_P50[op];
    /** @type {import('../lib/figures.mjs').Target | undefined} */
    const target = limit ? { of: 'value', op: '<', limit } : undefined;
    const fewer =
      big.ops[op].queries < QUERIES
        ? { note: `only ${big.ops[op].queries} queries fitted in the per-kind time budget` }
        : {};
    figures.add({
      section: '4 search',
      name: `${op} at ${n(big.size)}, p50`,
      unit: 'ms',
      value: big.ops[op].p50,
      comparison: small.ops[op].p50,
      comparisonName: `at ${n(small.size)}`,
      ...(target && { target }),
      ...fewer,
    });
    figures.add({
      section: '4 search',
      name: `${op} at ${n(big.size)}, p99`,
      unit: 'ms',
      value: big.ops[op].p99,
      comparison: small.ops[op].p99,
      comparisonName: `at ${n(small.size)}`,
    });
  }
  if (!big.cached && !small.cached)
    figures.add({
      section: '4 search',
      name: `index build to Ready at ${n(big.size)} (after load)`,
      unit: 'ms',
      value: big.indexMs,
      comparison: small.indexMs,
      comparisonName: `at ${n(small.size)}`,
    });
  return bySize;
}

/**
 * The scaling table: one row per query kind, p50 / p99 per size.
 * @param {SizeResult[]} bySize
 */
export function formatScaling(bySize, md = false) {
  const { small, big } = ends(bySize);
  const head = [
    'query',
    ...bySize.map((b) => `${b.size.toLocaleString('en')}: p50 / p99 ms`),
    `p50 ratio ${big.size / small.size}x size`,
  ];
  const rows = OPS.map((op) => [
    op,
    ...bySize.map(
      (b) =>
        `${b.ops[op].p50.toFixed(2)} / ${b.ops[op].p99.toFixed(2)}${b.ops[op].queries < QUERIES ? ` (${b.ops[op].queries} q)` : ''}`,
    ),
    (big.ops[op].p50 / small.ops[op].p50).toFixed(2),
  ]);
  rows.push([
    'index build (s)',
    ...bySize.map((b) =>
      b.cached ? 'cached database' : `${(b.indexMs / 1000).toFixed(1)} (+${(b.loadMs / 1000).toFixed(1)} load)`,
    ),
    '',
  ]);
  if (md)
    return [
      `| ${head.join(' | ')} |`,
      `|${head.map(() => '---').join('|')}|`,
      ...rows.map((r) => `| ${r.join(' | ')} |`),
    ].join('\n');
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]?.length ?? 0)));
  return [head, ...rows]
    .map((r) =>
      r
        .map((c, i) => c.padEnd(widths[i] ?? 0))
        .join('  ')
        .trimEnd(),
    )
    .join('\n');
}
