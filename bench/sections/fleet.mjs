// Figure 10 (issue 15): a distributed foreach of 10,000 items against a service that answers each item in
// about 20 ms, run by a fleet of 4 `recipe worker` processes against the same run by 1 worker, side by side
// in one bench run (alternating, fresh queue each time), on Redis and on PostgreSQL (issue 27). Everything
// real: a redis-server and a PostgreSQL cluster, the workers as child processes of the CLI (BullMQ, the
// fleet's journal), the service in its own process. Then queue throughput: no-op jobs a second on each store.
import { execFileSync, spawn } from 'node:child_process';
import { chownSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { median } from '../lib/proc.mjs';

const ROOT = new URL('../../', import.meta.url).pathname;
const REDIS_SERVER = process.env.REDIS_SERVER ?? '/usr/bin/redis-server';
const ITEMS = 10_000;
const CHUNK = 500;
const CONCURRENCY = 8;
const DELAY_MS = 20;

const RECIPE = `version: 1
name: fleet-fan-out
connector: { id: c-1 }
steps:
  - id: fetched
    foreach: "\${ [0..${ITEMS - 1}] }"
    as: n
    concurrency: ${CONCURRENCY}
    distribute: { chunk: ${CHUNK} }
    steps:
      - id: got
        execute: { entity: items, action: get, params: { n: "\${ $n }" } }
    collect: "\${ $got.n }"
outputs:
  count: "\${ $count($fetched) }"
  sum: "\${ $sum($fetched) }"
`;

/**
 * A child process that has printed a line matching `ready` (on stdout or stderr).
 * @typedef {{ child: import('node:child_process').ChildProcess, line: string, output: () => string }} Started
 */

/**
 * @param {string} cmd
 * @param {string[]} args
 * @param {{ env?: Record<string, string>, cwd?: string, ready: RegExp, what: string }} o
 * @returns {Promise<Started>}
 */
function startChild(cmd, args, o) {
  const child = spawn(cmd, args, { cwd: o.cwd, env: { ...process.env, ...o.env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${o.what} did not start in 20 s:\n${output.slice(-1500)}`));
    }, 20_000);
    /** @param {Buffer} d */
    const onData = (d) => {
      output += d.toString();
      const line = output.split('\n').find((l) => o.ready.test(l));
      if (line !== undefined) {
        clearTimeout(timer);
        resolve({ child, line: line.trim(), output: () => output });
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('error', (err) => {
      clearTimeout(timer);
      reject(new Error(`${o.what}: ${err.message}`));
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${o.what} exited (${code}) before it was ready:\n${output.slice(-1500)}`));
    });
  });
}

/**
 * SIGTERM, then SIGKILL after 15 s; resolves once it has exited.
 * @param {import('node:child_process').ChildProcess} child
 */
async function stopChild(child) {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
  await exited;
  clearTimeout(timer);
}

/** @returns {Promise<number>} */
function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/**
 * A redis-server on a free port in `dir`, answering PING.
 * @param {string} dir
 */
async function startRedis(dir) {
  const port = await freePort();
  mkdirSync(dir, { recursive: true });
  const args = ['--port', String(port), '--bind', '127.0.0.1', '--dir', dir, '--save', '', '--appendonly', 'no'];
  const started = await startChild(REDIS_SERVER, [...args, '--maxmemory-policy', 'noeviction'], {
    cwd: dir,
    ready: /Ready to accept connections/,
    what: `redis-server (${REDIS_SERVER}; the Debian package redis-server)`,
  });
  await new Promise((resolve, reject) => {
    const socket = new Socket();
    socket.once('error', reject);
    socket.once('data', (d) => {
      socket.destroy();
      if (d.toString().startsWith('+PONG')) resolve(undefined);
      else reject(new Error(`redis-server answered ${d.toString()}`));
    });
    socket.connect(port, '127.0.0.1', () => socket.write('PING\r\n'));
  });
  return { url: `redis://127.0.0.1:${port}`, child: started.child };
}

/** Where PostgreSQL's programs are: PG_BIN, /usr/local/bin, else the newest /usr/lib/postgresql/N/bin. */
function pgBin() {
  if (process.env.PG_BIN) return process.env.PG_BIN;
  if (existsSync('/usr/local/bin/initdb')) return '/usr/local/bin';
  const base = '/usr/lib/postgresql';
  const v = existsSync(base) ? readdirSync(base).sort((a, b) => Number(b) - Number(a))[0] : undefined;
  return v ? join(base, v, 'bin') : '';
}

/**
 * A PostgreSQL cluster on a free port (as the `postgres` user when we are root: it refuses root), in a folder of
 * its own directly under the system's temporary folder: the bench's folder is root's, closed to `postgres`.
 */
async function startPostgres() {
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'recipe-bench-postgres-'));
  const root = process.getuid?.() === 0;
  if (root) {
    const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }));
    const gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }));
    chownSync(dir, uid, gid);
  }
  /** @param {string} program @param {string[]} args */
  const run = (program, args) => {
    const file = join(pgBin(), program);
    return root
      ? execFileSync('runuser', ['-u', 'postgres', '--', file, ...args], { stdio: 'pipe' })
      : execFileSync(file, args, { stdio: 'pipe' });
  };
  const data = join(dir, 'data');
  run('initdb', ['-D', data, '-U', 'postgres', '--auth=trust', '--no-sync']);
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=on -c synchronous_commit=on`;
  run('pg_ctl', ['start', '-w', '-D', data, '-l', join(dir, 'server.log'), '-o', options]);
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    stop: () => {
      try {
        run('pg_ctl', ['stop', '-w', '-m', 'fast', '-D', data]);
      } catch {
        // already stopped
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * No-op jobs a second through one worker process's queue (in this process: BullMQ on the store, concurrency 16).
 * @param {{ kind: 'redis' | 'postgres', url: string }} store
 * @param {number} jobs
 */
async function queueThroughput(store, jobs) {
  const { connectStore } = await import(join(ROOT, 'dist/fleet/open-store.js'));
  const connections = await connectStore(store);
  const name = `bench-noop-${store.kind}-${Date.now()}`;
  const queue = connections.newQueue(name);
  try {
    for (let i = 0; i < jobs; i += 500)
      await queue.addBulk(
        Array.from({ length: Math.min(500, jobs - i) }, (_, j) => ({ name: 'noop', data: { i: i + j } })),
      );
    let done = 0;
    /** @type {(v?: unknown) => void} */
    let finish = () => undefined;
    const all = new Promise((r) => (finish = r));
    const t0 = performance.now();
    const worker = connections.newWorker(
      name,
      async () => {
        if (++done === jobs) finish();
        return null;
      },
      { concurrency: 16, removeOnComplete: { count: 0 } },
      {},
    );
    await all;
    const ms = performance.now() - t0;
    await worker.close();
    return (jobs / ms) * 1000;
  } finally {
    await queue.close();
    await connections.close();
  }
}

/**
 * Adds the fleet figure.
 * @param {import('../lib/section-context.mjs').SectionContext} ctx
 * @param {number} runs
 */
export async function benchFleet({ figures, log, tmp }, runs) {
  const dir = join(tmp, 'fleet');
  const recipesDir = join(dir, 'recipes');
  mkdirSync(recipesDir, { recursive: true });
  const file = join(recipesDir, 'fan-out.yaml');
  writeFileSync(file, RECIPE);
  const redis = await startRedis(join(dir, 'redis'));
  const service = await startChild(
    process.execPath,
    [join(ROOT, 'bench/sections/fleet-service.mjs'), String(DELAY_MS)],
    {
      ready: /^http:\/\//,
      what: 'the slow service',
    },
  );
  const env = {
    CONNECTOR_API_URL: service.line,
    CONNECTOR_CLIENT_ID: 'bench',
    CONNECTOR_CLIENT_SECRET: 'bench-secret',
    NO_COLOR: '1',
  };
  const { openFleet, runJobData, submitRun, waitForRun } = await import(join(ROOT, 'dist/fleet/queue.js'));
  const { loadRecipe } = await import(join(ROOT, 'dist/compile/index.js'));
  const { plan } = await loadRecipe(file);
  let queueNo = 0;

  /**
   * One run of the recipe by a fleet of `n` workers (started and ready before the clock starts).
   * @param {number} n
   * @param {{ kind: 'redis' | 'postgres', url: string }} store
   * @returns {Promise<number>} ms from submit to the run's recorded end
   */
  const once = async (n, store) => {
    const queue = `bench-fleet-${n}-${++queueNo}`;
    const workers = [];
    try {
      for (let i = 0; i < n; i++)
        workers.push(
          await startChild(
            process.execPath,
            [
              join(ROOT, 'bin/recipe.js'),
              'worker',
              `--${store.kind}`,
              store.url,
              '--queue',
              queue,
              '--recipes',
              recipesDir,
            ],
            { cwd: dir, env, ready: /taking jobs from queue/, what: `recipe worker ${i + 1}/${n}` },
          ),
        );
      const fleet = await openFleet(store, queue);
      try {
        const data = await runJobData(plan, recipesDir, { inputs: {}, runId: `fleet-${n}-${queueNo}` });
        const t0 = performance.now();
        await submitRun(fleet, data);
        const outcome = await waitForRun(fleet, data.run_id, new AbortController().signal, 20);
        const ms = performance.now() - t0;
        const outputs = outcome?.kind === 'report' ? outcome.record.outputs : null;
        if (outcome?.kind !== 'report' || outcome.record.status !== 'succeeded' || outputs?.count !== ITEMS)
          throw new Error(
            `the fleet of ${n} did not finish the run: ${JSON.stringify(outcome).slice(0, 800)}\n${workers
              .map((w) => w.output().slice(-800))
              .join('\n')}`,
          );
        return ms;
      } finally {
        await fleet.close();
      }
    } finally {
      await Promise.all(workers.map((w) => stopChild(w.child)));
    }
  };

  const postgres = await startPostgres();
  /** @type {Array<{ kind: 'redis' | 'postgres', url: string, label: string }>} */
  const stores = [
    { kind: 'redis', url: redis.url, label: 'Redis' },
    { kind: 'postgres', url: postgres.url, label: 'PostgreSQL' },
  ];
  try {
    log(
      `fleet: distributed foreach of ${ITEMS.toLocaleString('en')} items (chunks of ${CHUNK}, concurrency ${CONCURRENCY} per chunk) against a service answering in ${DELAY_MS} ms; 1 worker against 4, ${runs} run(s) each, alternating`,
    );
    /** @type {Record<string, number>} */
    const fourByStore = {};
    for (const store of stores) {
      const one = [];
      const four = [];
      for (let r = 0; r < runs; r++) {
        one.push(await once(1, store));
        log(`  ${store.label}, 1 worker: ${Math.round(one[one.length - 1] ?? 0)} ms`);
        four.push(await once(4, store));
        log(`  ${store.label}, 4 workers: ${Math.round(four[four.length - 1] ?? 0)} ms`);
      }
      const m4 = median(four);
      const m1 = median(one);
      fourByStore[store.kind] = m4;
      log(`  ${store.label}: speed-up ${(m1 / m4).toFixed(2)}x`);
      figures.add({
        section: '10 fleet',
        name: `distributed foreach, ${ITEMS.toLocaleString('en')} items at ${DELAY_MS} ms: 4 workers (wall)${store.kind === 'postgres' ? ', PostgreSQL' : ''}`,
        unit: 'ms',
        value: m4,
        comparison: m1,
        comparisonName: '1 worker',
        target: { of: 'ratio', op: '<=', limit: 0.35 },
      });
    }
    figures.add({
      section: '10 fleet',
      name: `distributed foreach, 4 workers: PostgreSQL against Redis (wall)`,
      unit: 'ms',
      value: fourByStore.postgres ?? 0,
      comparison: fourByStore.redis ?? 0,
      comparisonName: 'Redis',
      target: { of: 'ratio', op: '<=', limit: 2 },
    });
    for (const store of stores) {
      const perS = await queueThroughput(store, 3000);
      log(`  queue throughput, ${store.label}: ${Math.round(perS)} no-op jobs/s`);
      figures.add({
        section: '10 fleet',
        name: `queue throughput, no-op jobs (one worker, concurrency 16): ${store.label}`,
        unit: 'jobs/s',
        value: perS,
      });
    }
  } finally {
    await stopChild(service.child);
    await stopChild(redis.child);
    postgres.stop();
  }
}
