import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pgLib from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { openSqlPool } from '../../src/journal/postgres/client.js';
import { connectStore } from '../../src/fleet/open-store.js';
import { FLEET_SCHEMA } from '../../src/fleet/postgres.js';
import { postgresRegistry } from '../../src/fleet/postgres-registry.js';
import { redisRegistry } from '../../src/fleet/redis-registry.js';
import type { FleetRegistry, WorkerRecord } from '../../src/fleet/registry.js';
import { DEFAULT_QUEUE, type RunJobData } from '../../src/fleet/job.js';
import {
  listFleetRuns,
  openFleet,
  runJobData,
  submitRun,
  waitForRun,
  type FleetClient,
} from '../../src/fleet/queue.js';
import {
  listSchedules,
  pauseSchedule,
  removeSchedule,
  resumeSchedule,
  upsertSchedule,
} from '../../src/fleet/schedules.js';
import { fleetStatus } from '../../src/fleet/status.js';
import { checkRecipe } from '../../src/run/index.js';
import { runCli } from '../cli/cli-process.js';
import { extractBlocks } from '../docs/doc-examples.js';
import { startPostgresServer, type PostgresServer } from '../helpers/postgres-server.js';
import { startRedisServer, type RedisServer } from '../helpers/redis-server.js';
import {
  CLIENT,
  fleetEnv,
  notesLike,
  spawnRecipe,
  startServe,
  stopProcess,
  until,
  untilReady,
  type RecipeProcess,
} from './fleet-process.js';

/**
 * Operating the fleet (issue 26): `recipe fleet status` with three workers, runs that never began in
 * `recipe runs --redis`, one count of a distributed run's requests and writes, transient failures requeued
 * and permanent ones not, a redrive run by a worker, schedules paused and jittered. All real: redis-server,
 * `recipe serve`, `recipe worker` processes, and an HTTP target in this process for http steps.
 *
 * On PostgreSQL (issue 27), leaner: CI time is short, and what these cases test above the store (run jobs,
 * requeue, the distributed count) is the same code on both. What each store keeps itself is tested on both: the
 * registry (workers that run out on the store's clock, paused schedules) directly, and `fleet status`, schedule
 * pause/resume and a redrive sent to the workers with two workers on PostgreSQL.
 */
let dir: string;
let recipes: string;
let serviceDb: string;
let redisServer: RedisServer;
let pgServer: PostgresServer;
let serve: RecipeProcess | undefined;
let serviceUrl: string;
let target: Server;
let targetUrl: string;
const workers: RecipeProcess[] = [];
/** Held GET /hold requests, released by the test. */
const held: (() => void)[] = [];
/** What GET /flaky answers now. */
let flakyStatus = 503;

function env(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return fleetEnv({
    CONNECTOR_API_URL: serviceUrl,
    CONNECTOR_CLIENT_ID: CLIENT.id,
    CONNECTOR_CLIENT_SECRET: CLIENT.secret,
    RECIPE_REDIS_URL: redisServer.url,
    ...extra,
  });
}

function startWorker(extra: string[] = []): RecipeProcess {
  const w = spawnRecipe(['worker', '--recipes', recipes, '--lock-ms', '3000', ...extra], env(), dir);
  workers.push(w);
  return w;
}

function cli(args: string[], timeoutMs = 120_000) {
  return runCli(args, { cwd: dir, env: env(), timeoutMs });
}

async function json<T>(args: string[]): Promise<T> {
  const r = await cli([...args, '--json']);
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout) as T;
}

interface Status {
  workers: { id: string; pid: number; version: string; concurrency: number; current: { run_id: string }[] }[];
  jobs: { waiting: number; active: number; delayed: number; failed: number };
  schedules: {
    name: string;
    paused: boolean;
    next: string | null;
    jitter_ms: number | null;
    offset_ms: number | null;
  }[];
  leases: { run_id: string; holder: string | null; expires_in_ms: number }[];
}

interface Row {
  run_id: string;
  status: string;
  reason?: string;
  requests: number;
  writes: number;
  attempts: number;
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'recipe-fleet-ops-'));
  recipes = join(dir, 'recipes');
  mkdirSync(recipes);
  serviceDb = join(dir, 'service.db');
  target = createServer((req, res) => {
    const path = req.url?.split('?')[0];
    if (path === '/hold') held.push(() => res.end('{"ok":true}'));
    else if (path === '/flaky') res.writeHead(flakyStatus).end('{}');
    else if (path === '/bad') res.writeHead(400).end('{"error":"bad request"}');
    else res.writeHead(404).end();
  });
  await new Promise<void>((r) => target.listen(0, '127.0.0.1', () => r()));
  const port = (target.address() as { port: number }).port;
  targetUrl = `http://127.0.0.1:${port}`;
  const httpRecipe = (name: string, path: string): string => `version: 1
name: ${name}
inputs:
  tag: { type: string, required: true }
http:
  allow: ["127.0.0.1:${port}"]
steps:
  - id: call
    retry: { max_attempts: 1 }
    timeout_ms: 300000
    http:
      url: "${targetUrl}${path}?tag=\${ $inputs.tag }"
outputs:
  ok: "\${ $call.status }"
`;
  writeFileSync(join(recipes, 'hold.yaml'), httpRecipe('hold', '/hold'));
  writeFileSync(join(recipes, 'flaky.yaml'), httpRecipe('flaky', '/flaky'));
  writeFileSync(join(recipes, 'bad.yaml'), httpRecipe('bad', '/bad'));
  writeFileSync(
    join(recipes, 'spread.yaml'),
    `version: 1
name: spread
inputs:
  tag: { type: string, required: true }
connector: { workspace: default, definition: CRM }
steps:
  - id: notes
    foreach: "\${ [1..20] }"
    as: n
    distribute: { chunk: 5 }
    steps:
      - id: note
        execute:
          entity: notes
          action: create
          params:
            properties:
              hs_note_body: "\${ $inputs.tag & ' ' & $string($n) }"
              hs_timestamp: "\${ $run.started_at }"
    collect: "\${ $note.id }"
outputs:
  count: "\${ $count($notes) }"
`,
  );
  [redisServer, pgServer] = await Promise.all([startRedisServer(), startPostgresServer()]);
  const started = await startServe(serviceDb, dir);
  serve = started.proc;
  serviceUrl = started.url;
}, 60_000);

// A test that failed half-way must not leave the workers stuck on held requests for the next ones.
afterEach(() => {
  for (const release of held.splice(0)) release();
});

afterAll(async () => {
  for (const release of held.splice(0)) release();
  await Promise.all(workers.map((w) => stopProcess(w)));
  await stopProcess(serve);
  await new Promise((r) => target?.close(r));
  await redisServer?.stop();
  await pgServer?.stop();
}, 60_000);

describe('recipe fleet status and recipe runs --redis', () => {
  it('shows 3 workers with their current runs, the queue, schedules and leases; runs that never began are listed', async () => {
    const three = [startWorker(), startWorker(), startWorker()];
    await untilReady(three);
    for (const tag of ['h1', 'h2', 'h3'])
      expect(
        (
          await cli([
            'submit',
            join(recipes, 'hold.yaml'),
            '--recipes',
            recipes,
            '-i',
            `tag=${tag}`,
            '--run-id',
            `hold-${tag}`,
          ])
        ).code,
      ).toBe(0);
    // A fourth waits: every worker holds one (concurrency 1).
    expect(
      (await cli(['submit', join(recipes, 'hold.yaml'), '--recipes', recipes, '-i', 'tag=h4', '--run-id', 'hold-h4']))
        .code,
    ).toBe(0);
    await until('three held requests', 60_000, async () => (held.length >= 3 ? true : undefined));
    expect(
      (
        await cli([
          'schedule',
          'add',
          'yearly',
          join(recipes, 'hold.yaml'),
          '--recipes',
          recipes,
          '--cron',
          '0 0 1 1 *',
          '-i',
          'tag=s',
          '--jitter',
          '10m',
        ])
      ).code,
    ).toBe(0);
    expect(
      (
        await cli([
          'schedule',
          'add',
          'nightly',
          join(recipes, 'hold.yaml'),
          '--recipes',
          recipes,
          '--cron',
          '0 3 * * *',
          '-i',
          'tag=n',
        ])
      ).code,
    ).toBe(0);
    expect((await cli(['schedule', 'pause', 'nightly'])).code).toBe(0);

    const status = await until('every worker holding a run', 30_000, async () => {
      const s = await json<Status>(['fleet', 'status']);
      return s.workers.length === 3 && s.workers.every((w) => w.current.length === 1) ? s : undefined;
    });
    expect(new Set(status.workers.map((w) => w.pid))).toEqual(new Set(three.map((w) => w.child.pid)));
    const current = status.workers.flatMap((w) => w.current.map((c) => c.run_id));
    expect(new Set(current).size).toBe(3);
    expect(current.every((id) => /^hold-h[1-4]$/.test(id))).toBe(true);
    expect(status.workers[0]).toMatchObject({ concurrency: 1, version: expect.stringMatching(/^\d+\.\d+/) });
    expect(status.jobs, JSON.stringify(status)).toMatchObject({ waiting: 1, active: 3 });
    expect(status.schedules.map((s) => [s.name, s.paused])).toEqual([
      ['nightly', true],
      ['yearly', false],
    ]);
    const yearly = status.schedules[1]!;
    expect(yearly.next).not.toBeNull();
    expect(yearly.jitter_ms).toBe(600_000);
    expect(yearly.offset_ms).toBeGreaterThanOrEqual(0);
    expect(yearly.offset_ms).toBeLessThanOrEqual(600_000);
    expect(status.leases.map((l) => l.run_id).sort()).toEqual([...current].sort());
    expect(status.leases.every((l) => l.expires_in_ms > 0 && l.holder !== null)).toBe(true);
    const text = await cli(['fleet', 'status']);
    expect(text.stdout).toContain('workers (3):');
    expect(text.stdout).toMatch(/queue recipe-runs: 1 waiting, 3 active/);

    // An F003 job (the recipe differs on the workers) and a queued one, in `recipe runs` with their state.
    const other = join(dir, 'other');
    mkdirSync(other);
    writeFileSync(join(other, 'hold.yaml'), `${readFileSync(join(recipes, 'hold.yaml'), 'utf8')}# changed\n`);
    writeFileSync(join(other, 'gone.yaml'), readFileSync(join(recipes, 'hold.yaml'), 'utf8'));
    for (const release of held.splice(0)) release();
    const submitOther = (file: string, id: string) =>
      runCli(['submit', join(other, file), '--recipes', other, '-i', 'tag=x', '--run-id', id], {
        cwd: dir,
        env: env(),
      });
    expect((await submitOther('hold.yaml', 'differs-1')).code).toBe(0);
    expect((await submitOther('gone.yaml', 'missing-1')).code).toBe(0);
    const rows = await until('both jobs failed', 60_000, async () => {
      for (const release of held.splice(0)) release();
      const list = await json<Row[]>(['runs', '--redis', redisServer.url]);
      const failed = list.filter((r) => r.run_id === 'differs-1' || r.run_id === 'missing-1');
      return failed.length === 2 && failed.every((r) => r.status === 'failed') ? list : undefined;
    });
    expect(rows.find((r) => r.run_id === 'differs-1')?.reason).toMatch(/^F003 /);
    expect(rows.find((r) => r.run_id === 'missing-1')?.reason).toMatch(
      new RegExp(
        `^F021 the recipe gone.yaml is missing on this worker \\(recipes folder ${recipes.replace(/[/\\]/g, '.')}\\)`,
      ),
    );
    const shown = await cli(['runs', 'show', 'differs-1', '--redis', redisServer.url]);
    expect(shown.code, shown.stderr).toBe(0);
    expect(shown.stdout).toContain('failed before it began: F003');
    // No worker takes this queue's jobs: queued, and `runs show` says so.
    expect(
      (
        await cli([
          'submit',
          join(recipes, 'hold.yaml'),
          '--recipes',
          recipes,
          '-i',
          'tag=q',
          '--run-id',
          'idle-1',
          '--queue',
          'idle',
        ])
      ).code,
    ).toBe(0);
    const idle = await json<Row[]>(['runs', '--redis', redisServer.url, '--queue', 'idle']);
    expect(idle.map((r) => [r.run_id, r.status])).toEqual([['idle-1', 'queued']]);
    const queued = await json<{ status: string; job_state: string }>([
      'runs',
      'show',
      'idle-1',
      '--redis',
      redisServer.url,
      '--queue',
      'idle',
    ]);
    expect(queued).toMatchObject({ status: 'queued', job_state: 'waiting' });
    // The paused schedule resumes; removing it works paused or not.
    expect((await cli(['schedule', 'resume', 'nightly'])).code).toBe(0);
    expect((await cli(['schedule', 'resume', 'nightly'])).stderr).toContain('F023');
    expect((await cli(['schedule', 'remove', 'nightly'])).code).toBe(0);
    expect((await cli(['schedule', 'remove', 'yearly'])).code).toBe(0);
  }, 400_000);

  it('counts a distributed run once: `runs`, `runs show` and the report agree', async () => {
    const done = await cli([
      'submit',
      join(recipes, 'spread.yaml'),
      '--recipes',
      recipes,
      '-i',
      'tag=spread',
      '--run-id',
      'spread-1',
      '--wait',
      '--json',
    ]);
    expect(done.code, done.stderr).toBe(0);
    const report = JSON.parse(done.stdout) as { status: string; requests: number; outputs: { count: number } };
    expect(report).toMatchObject({ status: 'ok', outputs: { count: 20 } });
    expect(notesLike(serviceDb, 'spread ').size).toBe(20);
    const row = (await json<Row[]>(['runs', '--redis', redisServer.url])).find((r) => r.run_id === 'spread-1');
    expect(row).toMatchObject({ requests: report.requests, writes: 20, attempts: 1 });
    const shown = await json<{ requests: number }>(['runs', 'show', 'spread-1', '--redis', redisServer.url]);
    expect(shown.requests).toBe(report.requests);
    const text = await cli(['runs', 'show', 'spread-1', '--redis', redisServer.url]);
    expect(text.stdout).toContain(`requests ${report.requests}  writes 20`);
  }, 120_000);
});

describe('requeue, redrive and jitter on the fleet', () => {
  it('requeues a run failed for a transient cause (a 503) as attempts of the same run; a 400 is not requeued', async () => {
    if (workers.length === 0) {
      await untilReady([startWorker()]);
    }
    const failing = await cli([
      'submit',
      join(recipes, 'flaky.yaml'),
      '--recipes',
      recipes,
      '-i',
      'tag=f',
      '--run-id',
      'flaky-1',
    ]);
    expect(failing.code, failing.stderr).toBe(0);
    await until('the first attempt to fail', 60_000, async () =>
      workers.some((w) => w.output().includes('run flaky-1 failed for a transient cause (C013): requeued'))
        ? true
        : undefined,
    ).catch((err: Error) => {
      throw new Error(`${err.message}\n${workers.map((w) => w.output()).join('\n---\n')}`);
    });
    flakyStatus = 200;
    const waited = await cli([
      'submit',
      join(recipes, 'flaky.yaml'),
      '--recipes',
      recipes,
      '-i',
      'tag=f',
      '--run-id',
      'flaky-1',
      '--wait',
      '--json',
    ]);
    expect(waited.code, waited.stderr).toBe(0);
    expect(JSON.parse(waited.stdout)).toMatchObject({ status: 'ok', run_id: 'flaky-1' });
    const attempts = await json<{ resumes: { kind: string; status: string }[] }>([
      'runs',
      'show',
      'flaky-1',
      '--redis',
      redisServer.url,
    ]);
    expect(attempts.resumes.map((a) => [a.kind, a.status])).toEqual([['redrive', 'succeeded']]);

    const bad = await cli([
      'submit',
      join(recipes, 'bad.yaml'),
      '--recipes',
      recipes,
      '-i',
      'tag=b',
      '--run-id',
      'bad-1',
      '--wait',
    ]);
    expect(bad.code).toBe(1);
    const row = (await json<Row[]>(['runs', '--redis', redisServer.url])).find((r) => r.run_id === 'bad-1');
    expect(row).toMatchObject({ status: 'failed', attempts: 1 });
    expect(workers.some((w) => w.output().includes('run bad-1 failed for a transient cause'))).toBe(false);
  }, 120_000);

  it('resume --redis sends the redrive to the workers (the worker log shows it); --here is the local resume', async () => {
    flakyStatus = 500;
    const failed = await cli([
      'submit',
      join(recipes, 'bad.yaml'),
      '--recipes',
      recipes,
      '-i',
      'tag=r',
      '--run-id',
      'redrive-1',
      '--wait',
    ]);
    expect(failed.code).toBe(1);
    // Still a 400: the redrive runs on a worker and fails the same way, as attempt 2 of the same run.
    const resumed = await cli(['resume', 'redrive-1', '--redis', redisServer.url, '--json']);
    expect(resumed.code, resumed.stderr).toBe(1);
    expect(JSON.parse(resumed.stdout)).toMatchObject({ status: 'failed', run_id: 'redrive-1', attempt: 2 });
    expect(workers.some((w) => /run redrive-1 redriven on request \(attempt 2\)/.test(w.output()))).toBe(true);
    const running = await cli(['resume', 'idle-1', '--redis', redisServer.url, '--queue', 'idle']);
    expect(running.code).toBe(2);
    expect(running.stderr).toContain('F022');
  }, 120_000);
});

describe("the fleet's registry on each store (issue 27)", () => {
  const record = (id: string, queue: string): WorkerRecord => ({
    id,
    host: 'h',
    pid: 1,
    version: '0.0.0',
    concurrency: 1,
    queue,
    recipes_dir: '/r',
    started_at: 1,
    heartbeat_at: 2,
    current: [{ job_id: 'run-a', run_id: 'a', kind: 'run', since: 3 }],
  });

  it.each(['redis', 'postgres'] as const)(
    'on %s: a worker not renewed drops out by itself (the store clock), one removed at once; paused schedules kept by queue',
    async (kind) => {
      // The schema comes from the store's own connect (its migrations); a registry with a 300 ms expiry on top.
      const store = { kind, url: kind === 'redis' ? redisServer.url : pgServer.url };
      const connections = await connectStore(store);
      const pool = kind === 'postgres' ? await openSqlPool(pgServer.url) : undefined;
      try {
        const registry: FleetRegistry = pool
          ? postgresRegistry(pool, FLEET_SCHEMA, 300)
          : redisRegistry(connections.redis!, 300);
        const queue = `registry-${kind}`;
        await registry.writeWorker(record('w1', queue));
        await registry.writeWorker(record('w2', queue));
        await registry.writeWorker(record('w3', `${queue}-other`));
        expect((await registry.listWorkers(queue)).map((w) => w.id)).toEqual(['w1', 'w2']);
        expect((await registry.listWorkers(queue))[0]).toEqual(record('w1', queue));
        await registry.removeWorker(queue, 'w2');
        expect((await registry.listWorkers(queue)).map((w) => w.id)).toEqual(['w1']);
        // No heartbeat, no removal: w1 leaves the listing once its expiry passes (a SIGKILLed worker).
        await until('w1 to run out', 10_000, async () =>
          (await registry.listWorkers(queue)).length === 0 ? true : undefined,
        );

        await registry.pause(queue, 'nightly', '{"n":1}');
        await registry.pause(queue, 'nightly', '{"n":2}');
        expect([...(await registry.listPaused(queue))]).toEqual([['nightly', '{"n":2}']]);
        expect((await registry.listPaused(`${queue}-other`)).size).toBe(0);
        expect(await registry.unpause(queue, 'nightly')).toBe(true);
        expect(await registry.unpause(queue, 'nightly')).toBe(false);
      } finally {
        await pool?.end();
        await connections.close();
      }
    },
    30_000,
  );
});

describe("the fleet's own schema on PostgreSQL (recipe_fleet), versioned", () => {
  it('upgrades a schema made before versions were kept, once, with several processes connecting at once', async () => {
    const admin = new pgLib.Client({ connectionString: pgServer.url });
    await admin.connect();
    try {
      await admin.query('CREATE DATABASE legacy');
      const legacyUrl = pgServer.url.replace(/\/postgres$/, '/legacy');
      const legacy = new pgLib.Client({ connectionString: legacyUrl });
      await legacy.connect();
      try {
        // What the unversioned migration of earlier releases left: the kv table only, holding a visit.
        await legacy.query('CREATE SCHEMA recipe_fleet');
        await legacy.query(
          'CREATE TABLE recipe_fleet.kv (key text PRIMARY KEY, value text NOT NULL, expires_at timestamptz NOT NULL)',
        );
        await legacy.query("INSERT INTO recipe_fleet.kv VALUES ('visit', 'kept', now() + interval '1 hour')");
        const opened = await Promise.all([1, 2, 3].map(() => connectStore({ kind: 'postgres', url: legacyUrl })));
        try {
          expect(await opened[0]!.kv.get('visit')).toBe('kept');
          await opened[1]!.registry.pause('q', 'nightly', '{}');
          expect([...(await opened[2]!.registry.listPaused('q')).keys()]).toEqual(['nightly']);
        } finally {
          await Promise.all(opened.map((c) => c.close()));
        }
        const versions = await legacy.query<{ version: number }>(
          'SELECT version FROM recipe_fleet.schema_version ORDER BY version',
        );
        expect(versions.rows.map((r) => r.version)).toEqual([1, 2]);
      } finally {
        await legacy.end();
      }
    } finally {
      await admin.end();
    }
  }, 30_000);
});

describe('the fleet on PostgreSQL: fleet status, schedules paused, cancel, a redrive on the workers (issue 27)', () => {
  const pgWorkers: RecipeProcess[] = [];
  let fleet: FleetClient | undefined;

  function pgEnv(): NodeJS.ProcessEnv {
    const e = env();
    delete e.RECIPE_REDIS_URL;
    return { ...e, RECIPE_POSTGRES_URL: pgServer.url };
  }

  function pg(args: string[]) {
    return runCli(args, { cwd: dir, env: pgEnv(), timeoutMs: 120_000 });
  }

  async function submitHere(file: string, runId: string): Promise<void> {
    const plan = (await checkRecipe(join(recipes, file))).recipe!.plan;
    const data = await runJobData(plan, recipes, { inputs: { tag: runId }, runId });
    expect(await submitRun(fleet!, { ...data, run_id: runId })).toBe(true);
  }

  afterAll(async () => {
    for (const release of held.splice(0)) release();
    await Promise.all(pgWorkers.map((w) => stopProcess(w)));
    await fleet?.close();
  }, 60_000);

  // Lean: a `recipe` process on PostgreSQL takes some 2 s to start (pools, three schemas checked), so the
  // commands whose code is the same on both stores run here, in this process; the CLI runs where the store is
  // named (fleet status, schedule pause, cancel --postgres, resume --postgres).
  it('shows 2 workers with their runs and leases, a paused schedule; cancel, resume and redrive go through the store', async () => {
    for (let i = 0; i < 2; i++)
      pgWorkers.push(spawnRecipe(['worker', '--recipes', recipes, '--lock-ms', '3000'], pgEnv(), dir));
    fleet = await openFleet({ kind: 'postgres', url: pgServer.url }, DEFAULT_QUEUE);
    for (const id of ['pg-h1', 'pg-h2', 'pg-h3']) await submitHere('hold.yaml', id);
    const hold = (await fleet.queue.getJob('run-pg-h1'))!.data as RunJobData;
    await upsertSchedule(fleet, 'nightly', { cron: '0 3 * * *' }, hold);
    const paused = await pg(['schedule', 'pause', 'nightly']);
    expect(paused.code, paused.stderr).toBe(0);
    await expect(pauseSchedule(fleet, 'nightly')).rejects.toMatchObject({ code: 'F023' });
    await untilReady(pgWorkers, 60_000);

    await until('both workers holding a run', 30_000, async () => {
      const s = await fleetStatus(fleet!);
      return s.workers.length === 2 && s.workers.every((w) => w.current.length === 1) ? s : undefined;
    });
    const r = await pg(['fleet', 'status', '--postgres', pgServer.url, '--json']);
    expect(r.code, r.stderr).toBe(0);
    const status = JSON.parse(r.stdout) as Status;
    expect(new Set(status.workers.map((w) => w.pid))).toEqual(new Set(pgWorkers.map((w) => w.child.pid)));
    const current = status.workers.flatMap((w) => w.current.map((c) => c.run_id));
    expect(new Set(current).size).toBe(2);
    expect(status.jobs).toMatchObject({ waiting: 1, active: 2 });
    expect(status.schedules.map((x) => [x.name, x.paused, x.next])).toEqual([['nightly', true, null]]);
    expect(status.leases.map((l) => l.run_id).sort()).toEqual([...current].sort());
    const ids = new Set(status.workers.map((w) => w.id));
    expect(status.leases.every((l) => l.expires_in_ms > 0 && ids.has(l.holder ?? ''))).toBe(true);

    // The SQL docs/fleet.md shows for reading the live workers with psql.
    const [query] = extractBlocks('docs/fleet.md').filter((b) => b.lang === 'sql' && b.text.includes('recipe_fleet.'));
    const sql = new pgLib.Client({ connectionString: pgServer.url });
    await sql.connect();
    try {
      const rows = (await sql.query<{ id: string }>(query!.text)).rows;
      expect(rows.map((row) => row.id).sort()).toEqual([...ids].sort());
    } finally {
      await sql.end();
    }

    await resumeSchedule(fleet, 'nightly');
    await expect(resumeSchedule(fleet, 'nightly')).rejects.toMatchObject({ code: 'F023' });
    expect((await listSchedules(fleet)).map((x) => [x.name, x.paused, x.next !== null])).toEqual([
      ['nightly', false, true],
    ]);
    await removeSchedule(fleet, 'nightly');

    // One held run is cancelled (`recipe cancel --postgres`), the others end; a run that fails for good (a 400)
    // is redriven by a worker on request.
    const cancelled = current[0]!;
    const cancel = await pg(['cancel', cancelled, '--postgres', pgServer.url]);
    expect(cancel.code, cancel.stderr).toBe(0);
    await until('the held runs to end', 60_000, async () => {
      if ((await fleet!.journal.getRun(cancelled))?.status !== 'cancelled') return undefined;
      for (const release of held.splice(0)) release();
      const others = ['pg-h1', 'pg-h2', 'pg-h3'].filter((id) => id !== cancelled);
      const ended = await Promise.all(others.map((id) => fleet!.journal.getRun(id)));
      return ended.every((run) => run?.status === 'succeeded') ? true : undefined;
    });
    await submitHere('bad.yaml', 'pg-redrive-1');
    const failed = await waitForRun(fleet, 'pg-redrive-1', AbortSignal.timeout(60_000));
    expect(failed).toMatchObject({ kind: 'report', record: { status: 'failed' } });
    const resumed = await pg(['resume', 'pg-redrive-1', '--postgres', pgServer.url, '--json']);
    expect(resumed.code, resumed.stderr).toBe(1);
    expect(JSON.parse(resumed.stdout)).toMatchObject({ status: 'failed', run_id: 'pg-redrive-1', attempt: 2 });
    expect(pgWorkers.some((w) => /run pg-redrive-1 redriven on request \(attempt 2\)/.test(w.output()))).toBe(true);

    // Runs that never began (F003: the recipe differs on the workers; F021: it is missing there) are listed with
    // the reason, and a run failed for a transient cause (a 503) is requeued as an attempt of the same run.
    const other = join(dir, 'pg-other');
    mkdirSync(other);
    writeFileSync(join(other, 'hold.yaml'), `${readFileSync(join(recipes, 'hold.yaml'), 'utf8')}# changed\n`);
    writeFileSync(join(other, 'gone.yaml'), readFileSync(join(recipes, 'hold.yaml'), 'utf8'));
    for (const [file, id] of [
      ['hold.yaml', 'pg-differs-1'],
      ['gone.yaml', 'pg-missing-1'],
    ] as const) {
      const plan = (await checkRecipe(join(other, file))).recipe!.plan;
      const data = await runJobData(plan, other, { inputs: { tag: id }, runId: id });
      expect(await submitRun(fleet, { ...data, run_id: id })).toBe(true);
    }
    flakyStatus = 503;
    await submitHere('flaky.yaml', 'pg-flaky-1');
    const rows = await until('both jobs failed before they began', 60_000, async () => {
      const list = await listFleetRuns(fleet!, { limit: 50 });
      const failed = list.filter((r) => r.run_id === 'pg-differs-1' || r.run_id === 'pg-missing-1');
      return failed.length === 2 && failed.every((r) => r.status === 'failed') ? list : undefined;
    });
    expect(rows.find((r) => r.run_id === 'pg-differs-1')?.reason).toMatch(/^F003 /);
    expect(rows.find((r) => r.run_id === 'pg-missing-1')?.reason).toMatch(/^F021 the recipe gone.yaml is missing/);
    await until('the first attempt requeued', 60_000, async () =>
      pgWorkers.some((w) => w.output().includes('run pg-flaky-1 failed for a transient cause (C013): requeued'))
        ? true
        : undefined,
    );
    flakyStatus = 200;
    const flaky = await waitForRun(fleet, 'pg-flaky-1', AbortSignal.timeout(60_000));
    expect(flaky).toMatchObject({ kind: 'report', record: { status: 'succeeded', attempts: 2 } });
  }, 240_000);
});
