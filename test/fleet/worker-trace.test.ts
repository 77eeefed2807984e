import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../cli/cli-process.js';
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
import { startTestStore, STORE_KINDS, type TestStore } from './test-stores.js';

/**
 * A fleet worker sends the traces of the runs it runs (issue 16 point 3), as `recipe run` does: a real
 * `recipe serve`, an OTLP/HTTP receiver here, and on each store (issue 27) one `recipe worker` with the OTLP
 * variables set.
 */
let dir: string;
let serve: RecipeProcess | undefined;
let serviceUrl: string;
let receiver: OtlpReceiver;

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
  const started = await startServe(join(dir, 'service.db'), dir);
  serve = started.proc;
  serviceUrl = started.url;
  receiver = await startOtlpReceiver();
}, 90_000);
afterAll(async () => {
  await stopProcess(serve);
  await receiver?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe.each(STORE_KINDS)('recipe worker with OTEL_EXPORTER_OTLP_ENDPOINT, on %s', (kind) => {
  let store: TestStore;
  let worker: RecipeProcess | undefined;
  let env: NodeJS.ProcessEnv;
  const runId = `traced-${kind}`;

  beforeAll(async () => {
    store = await startTestStore(kind);
    env = fleetEnv({
      CONNECTOR_API_URL: serviceUrl,
      CONNECTOR_CLIENT_ID: CLIENT.id,
      CONNECTOR_CLIENT_SECRET: CLIENT.secret,
      ...store.env,
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
    await untilReady([worker], 60_000);
  }, 120_000);
  afterAll(async () => {
    await stopProcess(worker);
    await store?.stop();
  });

  it("sends a trace of each run it runs: the run's span with its id, a step span, the HTTP exchange", async () => {
    const r = await runCli(['submit', 'recipes/list.yaml', '--recipes', 'recipes', '--run-id', runId, '--wait'], {
      cwd: dir,
      env,
      timeoutMs: 60_000,
    });
    expect(r.code, r.stderr).toBe(0);
    // The worker flushes what is left when it stops (SIGTERM, exit 0).
    await stopProcess(worker);
    const spans = receiver.spans().filter((s) => s.attributes['recipe.run_id'] === runId);
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
