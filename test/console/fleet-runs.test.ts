import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type ServerResponse, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ConsoleInfo, FleetView } from '../../src/console/api-types.js';
import { buildConsoleApp, fleetActions, journalFileActions } from '../../src/console/server.js';
import type { RunsPage, RunView } from '../../src/console/run-api-types.js';
import { jobIdOf } from '../../src/fleet/job.js';
import { openFleet } from '../../src/fleet/queue.js';
import { connectRedisNow, openFleetJournal } from '../../src/fleet/redis.js';
import { listSchedules, upsertSchedule } from '../../src/fleet/schedules.js';
import { runJobData } from '../../src/fleet/queue.js';
import { checkRecipe } from '../../src/run/index.js';
import { startPostgresServer, type PostgresServer } from '../helpers/postgres-server.js';
import { runCli } from '../cli/cli-process.js';
import { fleetEnv, spawnRecipe, stopProcess, until, untilReady, type RecipeProcess } from '../fleet/fleet-process.js';
import { startRedisServer, type RedisServer } from '../helpers/redis-server.js';
import { end, start } from '../journal/store-contract.js';
import { haveChromium, launchBrowser, screenshot } from './browser.js';
import { startConsoleProcess, type ConsoleProcess } from './console-process.js';

/**
 * `recipe console --redis URL`: the runs pages read a fleet's journal on a real redis-server (written here
 * through the fleet's own journal store, as workers write it), paged with the same keyset cursor; and the
 * console acts on the fleet (issue 26): a real `recipe worker` runs a run that waits on an HTTP target in
 * this process, Chromium cancels it, redrives it and pauses a schedule from the pages, and a cross-site
 * POST is refused.
 */
let server: RedisServer;
let consoleProcess: ConsoleProcess;
let worker: RecipeProcess | undefined;
let target: Server;
const dir = mkdtempSync(join(tmpdir(), 'recipe-console-fleet-'));
const QUEUE = 'ops';
/** Requests the HTTP target holds (each answered when the test releases it), and how many came. */
const held: ServerResponse[] = [];
let arrived = 0;

function env(): NodeJS.ProcessEnv {
  // The worker's service is never called (the recipe has only an http step); a closed port says so.
  return fleetEnv({
    RECIPE_REDIS_URL: server.url,
    CONNECTOR_API_URL: 'http://127.0.0.1:9',
    CONNECTOR_CLIENT_ID: 'unused',
    CONNECTOR_CLIENT_SECRET: 'unused-secret-0123456789',
  });
}

function cli(args: string[]) {
  return runCli(args, { cwd: dir, env: env() as Record<string, string | undefined>, timeoutMs: 60_000 });
}

beforeAll(async () => {
  server = await startRedisServer();
  const redis = await connectRedisNow(server.url);
  const journal = openFleetJournal(redis, { queue: QUEUE, recipesDir: dir, ownsConnection: true });
  // 60 runs a second apart, every third failed: more than one page of 50.
  // The newest runs were started by a webhook trigger, a schedule and `recipe submit` (as workers journal them).
  const origins: Record<number, Record<string, unknown>> = {
    59: { kind: 'trigger', trigger: 'order-paid', delivery_id: 'evt_1' },
    58: { kind: 'schedule', schedule: 'nightly' },
    57: { kind: 'submit', callback: { url: 'http://127.0.0.1:9/done', delivery_id: 'run-fleet-57' } },
  };
  for (let i = 0; i < 60; i++) {
    const made = start(`fleet-${String(i).padStart(2, '0')}`, 1_700_000_000_000 + i * 1000);
    const origin = origins[i];
    const run = await journal.begin(origin ? { ...made, options: { origin } } : made);
    await run.finish({ ...end, status: i % 3 === 0 ? 'failed' : 'ok' });
  }
  await journal.close();
  target = createServer((req, res) => {
    arrived++;
    held.push(res);
  });
  await new Promise<void>((r) => target.listen(0, '127.0.0.1', () => r()));
  const port = (target.address() as { port: number }).port;
  mkdirSync(join(dir, 'recipes'));
  writeFileSync(
    join(dir, 'recipes/hold.yaml'),
    `version: 1
name: hold
http:
  allow: ["127.0.0.1:${port}"]
steps:
  - id: call
    retry: { max_attempts: 1 }
    timeout_ms: 300000
    http:
      url: "http://127.0.0.1:${port}/hold"
outputs:
  ok: "\${ $call.status }"
`,
  );
  consoleProcess = await startConsoleProcess(['--port', '0', '--redis', server.url, '--queue', QUEUE], { cwd: dir });
}, 60_000);
afterAll(async () => {
  for (const res of held.splice(0)) res.end('{}');
  await stopProcess(worker);
  await consoleProcess?.stop();
  await new Promise((r) => target?.close(r));
  await server?.stop();
  rmSync(dir, { recursive: true, force: true });
}, 60_000);

async function page(query: string): Promise<RunsPage> {
  const res = await fetch(`${consoleProcess.url}/api/runs${query}`);
  expect(res.status).toBe(200);
  return (await res.json()) as RunsPage;
}

describe('recipe console --redis', () => {
  it("lists the fleet's runs newest first and pages them with the cursor it hands out", async () => {
    const first = await page('?limit=50');
    expect(first.source).toContain(`${server.url.replace(/\/$/, '')}`);
    expect(first.runs).toHaveLength(50);
    expect(first.runs[0]?.run_id).toBe('fleet-59');
    expect(first.next).not.toBeNull();
    const second = await page(`?limit=50&before=${encodeURIComponent(first.next ?? '')}`);
    expect(second.runs.map((r) => r.run_id)).toEqual(
      Array.from({ length: 10 }, (_, i) => `fleet-${String(9 - i).padStart(2, '0')}`),
    );
    expect(second.next).toBeNull();
  });

  it('shows who started each run: in the list and on the run page', async () => {
    const first = await page('?limit=4');
    expect(first.runs.map((r) => r.origin)).toEqual([
      'trigger order-paid (delivery evt_1)',
      'schedule nightly',
      'recipe submit, result to http://127.0.0.1:9/done',
      null,
    ]);
    const res = await fetch(`${consoleProcess.url}/api/runs/fleet-59`);
    const view = (await res.json()) as { run: { origin: string | null; options: Record<string, unknown> } };
    expect(view.run.origin).toBe('trigger order-paid (delivery evt_1)');
    expect(view.run.options.origin).toEqual({ kind: 'trigger', trigger: 'order-paid', delivery_id: 'evt_1' });
  });

  it('filters by status', async () => {
    const failed = await page('?status=failed&limit=50');
    expect(failed.runs).toHaveLength(20);
    expect(failed.runs.every((r) => r.status === 'failed')).toBe(true);
  });

  it('GET /api/fleet on a console of a journal file: fleet_unavailable (503), and no fleet link', async () => {
    const app = await buildConsoleApp({
      cwd: dir,
      recipeFolders: [],
      version: 'test',
      actions: journalFileActions(join(dir, 'none.db')),
    });
    try {
      const res = await app.inject({ url: '/api/fleet', headers: { host: '127.0.0.1' } });
      expect(res.statusCode).toBe(503);
      expect(res.json()).toEqual({
        error_code: 'fleet_unavailable',
        message: expect.stringContaining('start it with --redis or --postgres') as unknown,
      });
      const info = (await app.inject({ url: '/api/info', headers: { host: '127.0.0.1' } })).json() as ConsoleInfo;
      expect(info.fleet.available).toBe(false);
    } finally {
      await app.close();
    }
  });

  it("GET /api/fleet when the fleet's store does not answer: fleet_unavailable (503) with the reason, not a 500", async () => {
    // A closed port: the connection is refused at once.
    const store = { kind: 'redis', url: 'redis://127.0.0.1:9' } as const;
    const app = await buildConsoleApp({
      cwd: dir,
      recipeFolders: [],
      version: 'test',
      actions: fleetActions(store, QUEUE, store.url),
    });
    try {
      const res = await app.inject({ url: '/api/fleet', headers: { host: '127.0.0.1' } });
      expect([res.statusCode, res.json<{ error_code: string }>().error_code]).toEqual([503, 'fleet_unavailable']);
      expect(res.json<{ message: string }>().message).toMatch(/^F001 cannot reach Redis at redis:\/\/127\.0\.0\.1:9/);
    } finally {
      await app.close();
    }
  });
});

describe.skipIf(!haveChromium)('console actions on the fleet', () => {
  let browser: Browser;
  let closeBrowser: (() => Promise<void>) | undefined;
  let csrf: string;
  beforeAll(async () => {
    worker = spawnRecipe(['worker', '--recipes', join(dir, 'recipes'), '--queue', QUEUE], env(), dir);
    const [submitted, added, launched, info] = await Promise.all([
      cli(['submit', 'recipes/hold.yaml', '--recipes', 'recipes', '--queue', QUEUE, '--run-id', 'ui-1']),
      cli([
        'schedule',
        'add',
        'yearly',
        'recipes/hold.yaml',
        '--recipes',
        'recipes',
        '--queue',
        QUEUE,
        '--cron',
        '0 0 1 1 *',
      ]),
      launchBrowser(),
      fetch(`${consoleProcess.url}/api/info`).then(async (r) => (await r.json()) as ConsoleInfo),
    ]);
    expect(submitted.code, submitted.stderr).toBe(0);
    expect(added.code, added.stderr).toBe(0);
    ({ browser, close: closeBrowser } = launched);
    csrf = info.actions.csrf_token;
    await until('the run waiting on the target', 30_000, async () => (held.length === 1 ? true : undefined));
  }, 60_000);
  afterAll(async () => {
    await closeBrowser?.();
  });

  const post = (path: string, headers: Record<string, string>, body = '{}') =>
    fetch(`${consoleProcess.url}${path}`, { method: 'POST', headers, body });
  const errorCode = async (res: Response) => ((await res.json()) as { error_code: string }).error_code;
  const yearlyPaused = async (): Promise<boolean | undefined> => {
    const fleet = await openFleet(server.url, QUEUE);
    try {
      return (await listSchedules(fleet)).find((s) => s.name === 'yearly')?.paused;
    } finally {
      await fleet.close();
    }
  };

  it('refuses a cross-site POST, or one without the CSRF proof: 4xx, and nothing changes', async () => {
    const json = { 'content-type': 'application/json' };
    // What a page on another site can send: a form (text/plain, its Origin), or fetch with its Origin.
    const form = await post('/api/runs/ui-1/cancel', {
      'content-type': 'text/plain',
      origin: 'http://evil.example',
      'sec-fetch-site': 'cross-site',
    });
    expect([form.status, await errorCode(form)]).toEqual([403, 'cross_site_request']);
    const foreign = await post('/api/schedules/yearly/pause', {
      ...json,
      origin: 'http://evil.example',
      'x-recipe-csrf': csrf,
    });
    expect([foreign.status, await errorCode(foreign)]).toEqual([403, 'cross_site_request']);
    const sameSite = await post('/api/schedules/yearly/pause', {
      ...json,
      'sec-fetch-site': 'same-site',
      'x-recipe-csrf': csrf,
    });
    expect(sameSite.status).toBe(403);
    // Same origin, but no CSRF token, or a wrong one, or not JSON.
    const origin = consoleProcess.url;
    const bare = await post('/api/runs/ui-1/cancel', { ...json, origin });
    expect([bare.status, await errorCode(bare)]).toEqual([403, 'csrf_token_missing']);
    const wrong = await post('/api/schedules/yearly/pause', { ...json, origin, 'x-recipe-csrf': `${csrf}x` });
    expect(wrong.status).toBe(403);
    const plain = await post('/api/schedules/yearly/pause', {
      'content-type': 'text/plain',
      origin,
      'x-recipe-csrf': csrf,
    });
    expect([plain.status, await errorCode(plain)]).toEqual([415, 'unsupported_media_type']);
    // Nothing changed: the schedule is active, the run still running and its request still open.
    expect(await yearlyPaused()).toBe(false);
    const run = (await (await fetch(`${consoleProcess.url}/api/runs/ui-1`)).json()) as RunView;
    expect(run.run.status).toBe('running');
    expect(held[0]?.writableEnded).toBe(false);
    expect(held[0]?.destroyed).toBe(false);
    // Other methods on an action stay refused.
    expect((await fetch(`${consoleProcess.url}/api/runs/ui-1/cancel`, { method: 'PUT' })).status).toBe(405);
  });

  it('shows 3 workers, the run one of them holds, the queue counts and the schedule on the fleet page', async () => {
    // Two more workers for the page to list (stopped at the end, so the first worker takes the redrive below).
    const more = [0, 1].map(() =>
      spawnRecipe(['worker', '--recipes', join(dir, 'recipes'), '--queue', QUEUE], env(), dir),
    );
    try {
      await untilReady(more);
      const status = async (): Promise<FleetView> => {
        const res = await fetch(`${consoleProcess.url}/api/fleet`);
        expect(res.status).toBe(200);
        return (await res.json()) as FleetView;
      };
      const fleet = await until('3 workers in the registry', 15_000, async () => {
        const f = await status();
        return f.workers.length === 3 ? f : undefined;
      });
      const holder = fleet.workers.find((w) => w.pid === worker?.child.pid);
      expect(holder?.current.map((c) => c.run_id)).toEqual(['ui-1']);
      expect(fleet.jobs.active).toBe(1);
      expect(fleet.schedules.map((s) => s.name)).toEqual(['yearly']);
      expect(fleet.leases).toMatchObject([{ run_id: 'ui-1', holder: holder?.id }]);

      const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
      const tab = await context.newPage();
      await tab.goto(`${consoleProcess.url}/runs`);
      await tab.getByRole('link', { name: 'Fleet' }).click();
      const workers = tab.getByRole('table', { name: /Workers/ });
      await expect.poll(() => workers.locator('tbody tr').count()).toBe(3);
      for (const w of fleet.workers) {
        const row = workers.locator(`tr[data-worker="${w.id}"]`);
        expect(await row.innerText()).toContain(String(w.pid));
      }
      const held = workers.locator(`tr[data-worker="${holder?.id ?? ''}"]`);
      await held.getByRole('link', { name: 'ui-1' }).waitFor();
      expect(await held.getByRole('link', { name: 'ui-1' }).getAttribute('href')).toBe('/runs/ui-1');
      const counts = tab.getByRole('table', { name: 'Queue' });
      expect(await counts.locator('th').allTextContents()).toEqual(['Waiting', 'Active', 'Delayed', 'Failed']);
      expect((await counts.locator('td').allInnerTexts())[1]).toBe('1');
      const schedule = tab.getByRole('table', { name: 'Schedules' }).locator('tr[data-schedule="yearly"]');
      expect(await schedule.innerText()).toContain('active');
      expect(await tab.getByRole('table', { name: 'Leases' }).innerText()).toContain(holder?.id ?? '?');
      await screenshot(tab, 'fleet');
      await context.close();
    } finally {
      await Promise.all(more.map((w) => stopProcess(w)));
    }
  }, 60_000);

  it('cancels the run from its page, redrives it to the workers, and it finishes', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const tab = await context.newPage();
    await tab.goto(`${consoleProcess.url}/runs/ui-1`);
    const status = tab.getByTestId('run-status');
    await expect.poll(() => status.innerText()).toBe('running');
    await tab.getByLabel('Reason').fill('wrong input file');
    await tab.getByRole('button', { name: 'Cancel run' }).click();
    await tab.getByText(/Cancel requested \(attempt 1\)/).waitFor();
    // The worker sees the request, aborts the held request and ends the attempt cancelled: the live page says so.
    await expect.poll(() => status.innerText(), { timeout: 15_000 }).toBe('cancelled');
    await expect.poll(() => held[0]?.destroyed).toBe(true);
    await screenshot(tab, 'run-cancelled');
    for (const res of held.splice(0)) res.end('{}');
    // The journal says cancelled a moment before BullMQ ends the job; a redrive before that is F022 (K508).
    const fleet = await openFleet(server.url, QUEUE);
    try {
      await until('the job ended', 10_000, async () => {
        const state = await (await fleet.queue.getJob(jobIdOf('ui-1')))?.getState();
        return state === 'completed' || state === 'failed' ? true : undefined;
      });
    } finally {
      await fleet.close();
    }

    await tab.getByRole('button', { name: 'Redrive' }).click();
    await tab.getByText(/queued for the workers to resume/).waitFor();
    // A worker resumes it (attempt 2) and sends the call again: released, the run succeeds.
    await until('the redriven call', 30_000, async () => (arrived >= 2 && held.length > 0 ? true : undefined));
    for (const res of held.splice(0)) res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
    await expect.poll(() => status.innerText(), { timeout: 20_000 }).toBe('succeeded');
    const view = (await (await fetch(`${consoleProcess.url}/api/runs/ui-1`)).json()) as RunView;
    expect(view.attempts.map((a) => a.status)).toEqual(['cancelled', 'succeeded']);
    expect(worker?.output()).toMatch(/run ui-1 resumed on request \(attempt 2\)/);
    expect(consoleProcess.stderr()).toMatch(
      /console action: cancel run ui-1 \(reason: wrong input file\) by 127\.0\.0\.1/,
    );
    expect(consoleProcess.stderr()).toMatch(/console action: redrive run ui-1 by /);
    await context.close();
  }, 90_000);

  it('pauses and resumes a schedule from the schedules page', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const tab = await context.newPage();
    await tab.goto(`${consoleProcess.url}/runs`);
    await tab.getByRole('link', { name: 'Schedules' }).click();
    const row = tab.locator('tr[data-schedule="yearly"]');
    await expect.poll(() => row.innerText()).toContain('active');
    await tab.getByRole('button', { name: 'Pause schedule yearly' }).click();
    await tab.getByText('schedule yearly paused: no ticks until it is resumed').waitFor();
    await expect.poll(() => row.innerText()).toContain('paused');
    expect(await yearlyPaused()).toBe(true);
    await screenshot(tab, 'schedules');
    await tab.getByRole('button', { name: 'Resume schedule yearly' }).click();
    await expect.poll(() => row.innerText()).toContain('active');
    expect(await yearlyPaused()).toBe(false);
    expect(consoleProcess.stderr()).toMatch(/console action: pause schedule yearly by /);
    await context.close();
  }, 60_000);
});

// HTTP only (no Chromium): the pages call these same endpoints, which the cases above drive on Redis.
describe('submit from the console (POST /api/runs, issue 26)', () => {
  const json = (csrf: string) => ({ 'content-type': 'application/json', 'x-recipe-csrf': csrf });
  const submit = (body: unknown, headers: Record<string, string>) =>
    fetch(`${consoleProcess.url}/api/runs`, { method: 'POST', headers, body: JSON.stringify(body) });

  it('queues a run a worker runs; bad inputs are a 422 naming the input; no CSRF proof or a recipe elsewhere is refused', async () => {
    writeFileSync(
      join(dir, 'recipes/greet.yaml'),
      'version: 1\nname: greet\ninputs:\n  who: { type: string, required: true }\nsteps:\n  - id: hello\n    transform: "${ \'hello \' & $inputs.who }"\noutputs:\n  said: "${ $hello }"\n',
    );
    // The actions block above leaves its worker idle; alone (-t, or without Chromium) this block starts one.
    worker ??= spawnRecipe(['worker', '--recipes', join(dir, 'recipes'), '--queue', QUEUE], env(), dir);
    const info = (await (await fetch(`${consoleProcess.url}/api/info`)).json()) as ConsoleInfo;
    expect(info.actions.submit_unavailable).toBeNull();
    const csrf = info.actions.csrf_token;

    const noProof = await submit(
      { recipe: 'recipes/greet.yaml', inputs: { who: 'Ada' } },
      {
        'content-type': 'application/json',
      },
    );
    expect([noProof.status, ((await noProof.json()) as { error_code: string }).error_code]).toEqual([
      403,
      'csrf_token_missing',
    ]);
    const bad = await submit({ recipe: 'recipes/greet.yaml', inputs: { nobody: 1 } }, json(csrf));
    const badBody = (await bad.json()) as { message: string; error_code: string };
    expect([bad.status, badBody.error_code]).toEqual([422, 'invalid_recipe']);
    expect(badBody.message).toMatch(/greet\.yaml:\d+:\d+: \w\d{3} .*who/);
    const outside = await submit({ recipe: '../../etc/passwd.yaml', inputs: {} }, json(csrf));
    expect([outside.status, ((await outside.json()) as { error_code: string }).error_code]).toEqual([
      422,
      'recipe_outside_folder',
    ]);

    const ok = await submit({ recipe: 'recipes/greet.yaml', inputs: { who: 'Ada' } }, json(csrf));
    expect(ok.status).toBe(202);
    const answer = (await ok.json()) as { run_id: string; recipe: string; link: string };
    expect(answer.recipe).toBe('greet.yaml');
    expect(answer.link).toBe(`/runs/${answer.run_id}`);
    const view = await until('the submitted run finished', 30_000, async () => {
      const res = await fetch(`${consoleProcess.url}/api/runs/${answer.run_id}`);
      if (res.status !== 200) return undefined;
      const v = (await res.json()) as RunView;
      return v.run.status === 'running' ? undefined : v;
    });
    expect(view.run.status).toBe('succeeded');
    expect(view.run.origin).toMatch(/submit/);
    expect(consoleProcess.stderr()).toMatch(
      new RegExp(`console action: submit greet\\.yaml as run ${answer.run_id} by 127\\.0\\.0\\.1`),
    );
  }, 60_000);
});

describe('recipe console --postgres: schedules paused and resumed on a fleet on PostgreSQL (issue 27)', () => {
  let pgServer: PostgresServer;
  let pgConsole: ConsoleProcess | undefined;

  beforeAll(async () => {
    pgServer = await startPostgresServer();
    const fleet = await openFleet({ kind: 'postgres', url: pgServer.url }, QUEUE);
    try {
      const plan = (await checkRecipe(join(dir, 'recipes/hold.yaml'))).recipe!.plan;
      await upsertSchedule(
        fleet,
        'yearly',
        { cron: '0 0 1 1 *' },
        await runJobData(plan, join(dir, 'recipes'), {
          inputs: {},
        }),
      );
    } finally {
      await fleet.close();
    }
    pgConsole = await startConsoleProcess(['--port', '0', '--postgres', pgServer.url, '--queue', QUEUE], { cwd: dir });
  }, 60_000);
  afterAll(async () => {
    await pgConsole?.stop();
    await pgServer?.stop();
  });

  it('offers the schedule actions, pauses and resumes a schedule; a second resume is refused (K510, 409)', async () => {
    const base = pgConsole!.url;
    const info = (await (await fetch(`${base}/api/info`)).json()) as ConsoleInfo;
    expect(info.actions.schedules_unavailable).toBeNull();
    const headers = { 'content-type': 'application/json', origin: base, 'x-recipe-csrf': info.actions.csrf_token };
    const post = (path: string) => fetch(`${base}${path}`, { method: 'POST', headers, body: '{}' });
    const listed = async () =>
      ((await (await fetch(`${base}/api/schedules`)).json()) as { schedules: { name: string; paused: boolean }[] })
        .schedules;
    expect((await post('/api/schedules/yearly/pause')).status).toBe(200);
    expect(await listed()).toMatchObject([{ name: 'yearly', paused: true }]);
    expect((await post('/api/schedules/yearly/resume')).status).toBe(200);
    expect(await listed()).toMatchObject([{ name: 'yearly', paused: false }]);
    const again = await post('/api/schedules/yearly/resume');
    expect([again.status, ((await again.json()) as { error_code: string }).error_code]).toEqual([
      409,
      'schedule_state',
    ]);
    expect(pgConsole!.stderr()).toMatch(/console action: pause schedule yearly by /);
  }, 60_000);
});
