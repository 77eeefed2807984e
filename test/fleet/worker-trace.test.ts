import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../cli/cli-process.js';
import { startRedisServer, type RedisServer } from '../helpers/redis-server.js';
import { startOtlpReceiver, type OtlpReceiver } from '../telemetry/otlp-receiver.js';
import {
  CLIENT,
  fleetEnv,
  spawnRecipe,
  startServe,
  stopProcess,
  untilReady,
  type RecipeProcess,
} from './fleet-process.js';

/**
 * A fleet worker sends the traces of the runs it runs (issue 16 point 3), as `recipe run` does: a real
 * redis-server, a `recipe serve`, one `recipe worker` with the OTLP variables set, an OTLP/HTTP receiver here.
 */
let dir: string;
let redisServer: RedisServer;
let serve: RecipeProcess | undefined;
let worker: RecipeProcess | undefined;
let receiver: OtlpReceiver;
let env: NodeJS.ProcessEnv;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'recipe-fleet-trace-'));
  mkdirSync(join(dir, 'recipes'));
  writeFileSync(
    join(dir, 'recipes', 'list.yaml'),
    [
      'version: 1',
      'name: list-contacts',
      'connector: { definition: CRM }',
      'steps:',
      '  - id: contacts',
      '    execute: { entity: contacts, action: list, params: { limit: 2 } }',
      'outputs:',
      '  count: "${ $count($contacts) }"',
      '',
    ].join('\n'),
  );
  redisServer = await startRedisServer();
  const started = await startServe(join(dir, 'service.db'), dir);
  serve = started.proc;
  receiver = await startOtlpReceiver();
  env = fleetEnv({
    CONNECTOR_API_URL: started.url,
    CONNECTOR_CLIENT_ID: CLIENT.id,
    CONNECTOR_CLIENT_SECRET: CLIENT.secret,
    RECIPE_REDIS_URL: redisServer.url,
  });
  worker = spawnRecipe(
    ['worker', '--recipes', 'recipes'],
    {
      ...env,
      OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint,
      OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
    },
    dir,
  );
  await untilReady([worker]);
}, 90_000);
afterAll(async () => {
  await stopProcess(worker);
  await stopProcess(serve);
  await receiver?.close();
  await redisServer?.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe('recipe worker with OTEL_EXPORTER_OTLP_ENDPOINT', () => {
  it("sends a trace of each run it runs: the run's span with its id, a step span, the HTTP exchange", async () => {
    const r = await runCli(['submit', 'recipes/list.yaml', '--recipes', 'recipes', '--run-id', 'traced-1', '--wait'], {
      cwd: dir,
      env,
      timeoutMs: 60_000,
    });
    expect(r.code, r.stderr).toBe(0);
    // The worker flushes what is left when it stops (SIGTERM, exit 0).
    await stopProcess(worker);
    const spans = receiver.spans().filter((s) => s.attributes['recipe.run_id'] === 'traced-1');
    const run = spans.find((s) => s.name === 'run list-contacts');
    expect(run, JSON.stringify(spans.map((s) => s.name))).toBeDefined();
    const step = spans.find((s) => s.attributes['recipe.step.id'] === 'contacts');
    expect(step?.parentSpanId).toBe(run?.spanId);
    expect(spans.some((s) => s.parentSpanId === step?.spanId && s.attributes['http.request.method'] === 'POST')).toBe(
      true,
    );
    expect(JSON.stringify(receiver.requests.map((q) => q.body.toString()))).not.toContain(CLIENT.secret);
  }, 90_000);
});
