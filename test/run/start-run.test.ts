import { createServer, request, type Server } from 'node:http';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadRecipe } from '../../src/compile/index.js';
import { openFleet, runJobData, submitRun } from '../../src/fleet/queue.js';
import { jobIdOf } from '../../src/fleet/job.js';
import { startService, type RunningService } from '../../src/service/start.js';
import { runCli } from '../cli/cli-process.js';
import { fleetEnv, spawnRecipe, stopProcess, until, type RecipeProcess } from '../fleet/fleet-process.js';
import { startRedisServer, type RedisServer } from '../helpers/redis-server.js';

/**
 * One way to start a run (run/start-run.ts): every entry point applies the checks of `recipe validate`
 * before a single request. The recipe below writes a note, then a task with a misspelt property: validate
 * says A004 at the task; no entry point may send the note first. The service sits behind a counting proxy:
 * the only request any entry point makes is reading the service's catalog (GET /api/v1/openapi.json), which
 * is what the recipe is checked against.
 */

const INVALID = `version: 1
name: misspelt
connector: { definition: CRM }
steps:
  - id: note
    execute:
      entity: notes
      action: create
      params: { properties: { hs_note_body: "first write" } }
  - id: task
    execute:
      entity: tasks
      action: create
      params: { properties: { hs_task_subject: "Follow up", hs_task_priorty: HIGH } }
`;

/** Valid, with one warning (W006): runs, and the warning is printed once; --strict refuses it. */
const WARNED = `version: 1
name: warned
inputs:
  label: { type: string, default: "\${ 'x' }" }
steps:
  - id: out
    transform: "\${ $inputs.label & '!' }"
outputs:
  out: "\${ $out }"
`;

const TEST_FILE = `recipe: misspelt.yaml
seed: demo
cases:
  - name: writes a note and a task
    expect:
      status: succeeded
`;

let service: RunningService;
let proxy: Server;
let proxyUrl: string;
const seen: string[] = [];
let dir: string;

/** The service's variables, pointing at the counting proxy. */
function serviceEnv(): Record<string, string> {
  return {
    CONNECTOR_API_URL: proxyUrl,
    CONNECTOR_CLIENT_ID: service.credentials.clientId,
    CONNECTOR_CLIENT_SECRET: service.credentials.clientSecret,
  };
}

/** Requests other than the catalog read: none may be sent for an invalid recipe. */
function sentBesidesCatalog(): string[] {
  return seen.filter((r) => r !== 'GET /api/v1/openapi.json');
}

beforeAll(async () => {
  service = await startService({ seed: 'demo', logLevel: 'silent' });
  const target = new URL(service.url);
  proxy = createServer((req, res) => {
    seen.push(`${req.method} ${req.url?.split('?')[0]}`);
    const out = request(
      { host: target.hostname, port: target.port, path: req.url, method: req.method, headers: req.headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    req.pipe(out);
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  const address = proxy.address();
  proxyUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  dir = mkdtempSync(join(tmpdir(), 'recipe-start-run-'));
  writeFileSync(join(dir, 'misspelt.yaml'), INVALID);
  writeFileSync(join(dir, 'warned.yaml'), WARNED);
  writeFileSync(join(dir, 'misspelt.test.yaml'), TEST_FILE);
});
afterAll(async () => {
  await new Promise((resolve) => proxy.close(resolve));
  await service.close();
});

describe('every entry point refuses what validate refuses, before a single request', () => {
  it('validate says A004 at the task (the reference)', async () => {
    const r = await runCli(['validate', 'misspelt.yaml'], { cwd: dir });
    expect(r.code).toBe(2);
    expect(r.stdout).toMatch(/misspelt\.yaml:14:\d+: A004 .*hs_task_priorty.*did you mean "hs_task_priority"/);
  });

  it('recipe run against a service: exit 2, A004, nothing sent but the catalog read', async () => {
    seen.length = 0;
    const r = await runCli(['run', 'misspelt.yaml', '--no-journal'], { cwd: dir, env: serviceEnv() });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/misspelt\.yaml:14:\d+: A004 /);
    expect(seen).toContain('GET /api/v1/openapi.json');
    expect(sentBesidesCatalog()).toEqual([]);
  });

  it('recipe run --json on the embedded service: exit 2 with the diagnostics, no service started', async () => {
    const r = await runCli(['run', 'misspelt.yaml', '--json', '--db', ':memory:'], { cwd: dir });
    expect(r.code).toBe(2);
    const report = JSON.parse(r.stdout) as { status: string; diagnostics: { code: string }[] };
    expect(report.status).toBe('invalid');
    expect(report.diagnostics.map((d) => d.code)).toEqual(['A004']);
    expect(r.stderr).not.toMatch(/using the embedded service/);
  });

  it('recipe test reports the tested recipe invalid (T002 with A004) and runs no case', async () => {
    const r = await runCli(['test', 'misspelt.test.yaml'], { cwd: dir });
    expect(r.code).toBe(2);
    expect(`${r.stdout}${r.stderr}`).toMatch(/T002 /);
    expect(`${r.stdout}${r.stderr}`).toMatch(/A004 /);
    expect(`${r.stdout}${r.stderr}`).not.toMatch(/writes a note and a task/);
  });

  it('recipe submit refuses it before it reaches the queue (exit 2; an unreachable Redis is never asked)', async () => {
    seen.length = 0;
    const r = await runCli(['submit', 'misspelt.yaml', '--redis', 'redis://127.0.0.1:1'], {
      cwd: dir,
      env: serviceEnv(),
    });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/A004 /);
    expect(sentBesidesCatalog()).toEqual([]);
  });

  it('warnings are printed once at the start of a run, and --strict makes them fatal', async () => {
    const ok = await runCli(['run', 'warned.yaml', '--no-journal', '--db', ':memory:'], { cwd: dir });
    expect(ok.code).toBe(0);
    expect(ok.stderr.match(/W006 /g)).toHaveLength(1);
    const strict = await runCli(['run', 'warned.yaml', '--no-journal', '--db', ':memory:', '--strict'], { cwd: dir });
    expect(strict.code).toBe(2);
    expect(strict.stderr).toMatch(/warned\.yaml:4:\d+: W006 /);
  });
});

describe('the fleet worker checks the job it takes', () => {
  let redis: RedisServer;
  let worker: RecipeProcess | undefined;

  beforeAll(async () => {
    redis = await startRedisServer();
  });
  afterAll(async () => {
    await stopProcess(worker);
    await redis.stop();
  });

  it('fails a job whose recipe has an A0xx error before a single request (submitted past submit)', async () => {
    // The job is put on the queue directly, as an older `recipe submit` or another tool could.
    const { plan } = await loadRecipe(join(dir, 'misspelt.yaml'));
    if (!plan) throw new Error('the recipe should load without a catalog');
    const fleet = await openFleet(redis.url, 'recipe-runs');
    try {
      const data = await runJobData(plan, dir, { inputs: {}, runId: 'misspelt-1' });
      expect(await submitRun(fleet, { ...data, run_id: 'misspelt-1' })).toBe(true);
      seen.length = 0;
      worker = spawnRecipe(
        ['worker', '--recipes', dir, '--lock-ms', '3000'],
        fleetEnv({ ...serviceEnv(), RECIPE_REDIS_URL: redis.url }),
        dir,
      );
      const reason = await until('the job to fail', 60_000, async () => {
        const job = await fleet.queue.getJob(jobIdOf('misspelt-1'));
        return (await job?.getState()) === 'failed' ? job?.failedReason : undefined;
      });
      expect(reason).toMatch(/misspelt\.yaml:14:\d+: A004 /);
      expect(sentBesidesCatalog()).toEqual([]);
      expect(await fleet.journal.getRun('misspelt-1')).toBeUndefined();
    } finally {
      await fleet.close();
    }
  }, 90_000);
});
