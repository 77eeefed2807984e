import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signatureHeader, verifySignature } from '../../src/triggers/signature.js';
import { runCli } from '../cli/cli-process.js';
import {
  CLIENT,
  fleetEnv,
  spawnRecipe,
  startServe,
  stopProcess,
  until,
  type RecipeProcess,
} from '../fleet/fleet-process.js';
import { startTestStore, type TestStore } from '../fleet/test-stores.js';
import { startServerProcess, type ServerProcess } from './triggers-process.js';

/**
 * Triggers and submits that run on the fleet (issue 28): a `runs_on: fleet` trigger enqueues one run per delivery
 * id for a real `recipe worker` on a real redis-server, and the worker posts the signed result callback of a
 * trigger's run and of `recipe submit --callback` to a receiver in this test.
 */
const HOOK_SECRET = 'whsec_fleet_0123456789abcdef';
const CB_SECRET = 'cbsec_fleet_0123456789abcdef';

let dir: string;
let recipes: string;
let redis: TestStore;
let redisUrl: string;
let serve: RecipeProcess | undefined;
let worker: RecipeProcess | undefined;
let triggers: ServerProcess | undefined;
let receiver: Server;
let receiverUrl: string;
const received: { path: string; headers: IncomingMessage['headers']; body: string }[] = [];
let env: NodeJS.ProcessEnv;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'recipe-fleet-trigger-'));
  recipes = join(dir, 'recipes');
  mkdirSync(recipes);
  mkdirSync(join(dir, 'triggers'));
  receiver = createServer((req, res) => {
    let body = '';
    req.on('data', (d: Buffer) => (body += d.toString()));
    req.on('end', () => {
      received.push({ path: req.url ?? '', headers: req.headers, body });
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as { port: number }).port}`;
  writeFileSync(
    join(recipes, 'double.yaml'),
    `version: 1
name: double
inputs:
  n: { type: integer, default: 1 }
steps:
  - id: doubled
    transform: "\${ $inputs.n * 2 }"
outputs:
  doubled: "\${ $doubled }"
`,
  );
  writeFileSync(
    join(dir, 'triggers', 'order-paid.yaml'),
    `recipe: ../recipes/double.yaml
signature: { secret_env: HOOK_SECRET }
runs_on: fleet
inputs:
  n: "\${ $payload.n }"
callback: { url: ${receiverUrl}/trigger, secret_env: CB_SECRET }
`,
  );
  redis = await startTestStore('redis');
  redisUrl = redis.store.url;
  const service = await startServe(join(dir, 'service.db'), dir);
  serve = service.proc;
  env = fleetEnv({
    CONNECTOR_API_URL: service.url,
    CONNECTOR_CLIENT_ID: CLIENT.id,
    CONNECTOR_CLIENT_SECRET: CLIENT.secret,
    RECIPE_REDIS_URL: redisUrl,
  });
  worker = spawnRecipe(['worker', '--recipes', recipes], { ...env, CB_SECRET, RECIPE_CALLBACK_SECRET: CB_SECRET }, dir);
  triggers = await startServerProcess(
    ['triggers', '--port', '0', '--redis', redisUrl, '--recipes', recipes, '--journal', join(dir, 'runs.db')],
    'triggers',
    { cwd: dir, env: { CONNECTOR_API_URL: service.url, ...clientEnv(), HOOK_SECRET } },
  );
}, 120_000);

afterAll(async () => {
  if (process.env.SHOW_LOGS) console.log(worker?.output(), triggers?.stderr());
  await triggers?.stop();
  await stopProcess(worker);
  await stopProcess(serve);
  await redis?.stop();
  await new Promise<void>((r) => receiver?.close(() => r()));
  rmSync(dir, { recursive: true, force: true });
});

function clientEnv(): Record<string, string> {
  return { CONNECTOR_CLIENT_ID: CLIENT.id, CONNECTOR_CLIENT_SECRET: CLIENT.secret };
}

async function deliver(body: string, query = ''): Promise<{ status: number; json: Record<string, unknown> }> {
  const res = await fetch(`${triggers!.url}/hooks/order-paid${query}`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'x-recipe-signature': signatureHeader(HOOK_SECRET, Math.floor(Date.now() / 1000), body),
      'x-delivery-id': 'evt-fleet-1',
    },
    body,
  });
  return { status: res.status, json: (await res.json()) as Record<string, unknown> };
}

/** The callback posted to `path` for `runId`, with its signature checked against CB_SECRET. */
async function callbackOf(path: string, runId: string): Promise<{ status: string; outputs: unknown }> {
  const got = await until(`the callback of ${runId}`, 60_000, async () =>
    received.find((r) => r.path === path && r.headers['x-delivery-id'] === `run-${runId}`),
  );
  const check = verifySignature(
    String(got.headers['x-recipe-signature']),
    CB_SECRET,
    Buffer.from(got.body),
    Math.floor(Date.now() / 1000),
  );
  expect(check).toEqual({ ok: true });
  return JSON.parse(got.body) as { status: string; outputs: unknown };
}

/** The run's origin and how many runs the fleet's journal holds under its id (read from the store itself). */
async function journaled(runId: string): Promise<{ origin: unknown; count: number }> {
  const journal = await redis.openJournal('recipe-runs');
  try {
    const record = await journal.getRun(runId);
    const runs = await journal.listRuns({ limit: 1000 });
    return { origin: record?.options.origin, count: runs.filter((r) => r.run_id === runId).length };
  } finally {
    await journal.close();
  }
}

describe('runs on the fleet', { timeout: 120_000 }, () => {
  it('a runs_on: fleet delivery sent 3 times enqueues 1 run; the worker posts its signed callback', async () => {
    const body = JSON.stringify({ n: 21 });
    const first = await Promise.all([deliver(body), deliver(body)]);
    const runId = String(first[0].json.run_id);
    expect(first.map((a) => a.status)).toEqual([202, 202]);
    expect(first.map((a) => a.json.run_id)).toEqual([runId, runId]);
    expect(first.filter((a) => a.json.duplicate === false)).toHaveLength(1);
    const third = await deliver(body, '?wait=60s');
    expect(third).toMatchObject({
      status: 200,
      json: { run_id: runId, duplicate: true, status: 'succeeded', report: { outputs: { doubled: 42 } } },
    });
    expect(await journaled(runId)).toMatchObject({
      count: 1,
      origin: {
        kind: 'trigger',
        trigger: 'order-paid',
        delivery_id: 'evt-fleet-1',
        callback: { url: `${receiverUrl}/trigger`, delivery_id: `run-${runId}` },
      },
    });
    expect(await callbackOf('/trigger', runId)).toMatchObject({ status: 'ok', outputs: { doubled: 42 } });
  });

  it('recipe submit --callback: the worker posts the signed report when the run ends', async () => {
    const sub = await runCli(
      [
        'submit',
        join(recipes, 'double.yaml'),
        '--recipes',
        recipes,
        '-i',
        'n=5',
        '--callback',
        `${receiverUrl}/submit`,
      ],
      { cwd: dir, env: { ...env, RECIPE_CALLBACK_SECRET: CB_SECRET }, timeoutMs: 30_000 },
    );
    expect(sub.code, sub.stderr).toBe(0);
    const runId = sub.stdout.trim();
    expect(await callbackOf('/submit', runId)).toMatchObject({ status: 'ok', outputs: { doubled: 10 } });
    expect(await journaled(runId)).toMatchObject({
      origin: { kind: 'submit', callback: { delivery_id: `run-${runId}` } },
    });
    // The job names the secret's variable, never its value.
    expect(await redis.holds(CB_SECRET)).toBe(false);
  });
});
