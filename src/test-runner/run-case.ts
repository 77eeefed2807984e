import type { Dispatcher } from 'undici';
import { ConnectorClient, type ConnectionConfig } from '../client/index.js';
import { resolveInputs } from '../compile/index.js';
import { RecipeError } from '../errors/index.js';
import { startRun, type OutsideRequest, type RunReport } from '../run/index.js';
import { CassettePlayer, CassetteRecorder, readCassette } from './cassette.js';
import { seededRandom, type TestClock } from './clock.js';
import { HitCounter, type StepHits } from './coverage.js';
import { interceptTraffic } from './interceptor.js';
import { MockSet } from './mock-rules.js';
import { TEST_CREDENTIALS } from './service-slot.js';
import type { TestCase, TestFile } from './test-file.js';
import type { TokenCache } from './token-cache.js';
import { CaseTraffic, type WriteRecord } from './traffic.js';

/** Where a case's requests go. */
export type CaseTarget =
  | { readonly kind: 'embedded'; readonly url: string; readonly data: string }
  | { readonly kind: 'live'; readonly config: ConnectionConfig; readonly record: boolean }
  | { readonly kind: 'cassette' };

/** What a case needs from the process that runs it. */
export interface CaseEnv {
  readonly target: CaseTarget;
  /** The dispatcher every case's traffic goes through (keep-alive connections to the service). */
  readonly agent: Dispatcher;
  readonly tokens: TokenCache;
  readonly clock: TestClock;
  /** The folder download steps write into (relative `to:` paths). */
  readonly downloads: string;
  /** --allow-network: requests to URLs outside the connector API that no mock answers are sent. */
  readonly allowNetwork?: boolean;
}

/** What one run of a case did. */
export interface CaseRun {
  readonly report: RunReport;
  readonly writes: WriteRecord[];
  /** Requests the cassette had no answer for. */
  readonly misses: string[];
  /** Outside requests refused because the network is off (T012 messages), even where the recipe went on. */
  readonly refused: string[];
  readonly logs: string[];
  readonly hits: Record<string, StepHits>;
  /** The bindings its expectations' predicates see besides $actual. */
  readonly bindings: Record<string, unknown>;
}

/** Runs a case's recipe once, on the case's clock, inputs and secrets, through its mocks or cassette. */
export async function runCase(file: TestFile, c: TestCase, env: CaseEnv): Promise<CaseRun> {
  env.clock.set(c.now);
  const random = seededRandom(`${file.display}#${c.name}`);
  const player =
    env.target.kind === 'cassette' && c.cassette
      ? new CassettePlayer(readCassette(c.cassette.path), c.cassette.display)
      : undefined;
  const recorder = env.target.kind === 'live' && env.target.record && c.cassette ? new CassetteRecorder() : undefined;
  const inputs = resolveInputs(file.recipe, { ...c.inputs }).values;
  const bindings = { case: { name: c.name, now: new Date(env.clock.now()).toISOString(), inputs } };
  const mocks = new MockSet(c.mocks, bindings);
  const config = connection(env.target);
  const traffic = new CaseTraffic({
    serviceOrigin: new URL(config.baseUrl).origin,
    tokens: env.tokens,
    ...(env.target.kind === 'embedded' ? { data: env.target.data } : {}),
    mocks,
    ...(player ? { player } : {}),
    ...(recorder ? { recorder } : {}),
    now: () => env.clock.now(),
  });
  const client = new ConnectorClient({
    ...config,
    dispatcher: interceptTraffic(env.agent, traffic),
    deps: { now: () => env.clock.now(), random, sleep: (ms, signal) => env.clock.sleep(ms, signal) },
  });
  if (player) player.redact = (value) => client.redactor.redactValue(value);
  const secretsEnv: Record<string, string | undefined> = { ...c.secrets };
  // `recipe test --retry-for` (only declared secrets are read from this env, so the setting is no secret).
  if (process.env.RECIPE_RETRY_FOR !== undefined) secretsEnv.RECIPE_RETRY_FOR = process.env.RECIPE_RETRY_FOR;
  if (env.target.kind === 'live')
    for (const name of file.recipe.secrets) if (process.env[name] !== undefined) secretsEnv[name] = process.env[name];
  const refused: string[] = [];
  // A cassette answers every request offline; otherwise only a mock or an allowed network lets one out.
  const networkOpen = player !== undefined || env.allowNetwork === true || c.network === 'allow';
  const beforeOutside = async (req: OutsideRequest): Promise<void> => {
    if (networkOpen || (await mocks.hasHttp(req))) return;
    const e = new RecipeError(
      'T012',
      { step: req.stepPath, method: req.method, url: client.redactor.redact(req.url) },
      { file: req.loc.file, line: req.loc.line, column: req.loc.column, pointer: req.loc.pointer },
    );
    refused.push(e.message);
    throw e;
  };
  const logs: string[] = [];
  const counter = new HitCounter();
  const signal = AbortSignal.timeout(c.timeoutMs);
  let report: RunReport;
  try {
    report = await startRun(file.checked, {
      client,
      redactor: client.redactor,
      inputs,
      env: secretsEnv,
      signal,
      now: () => env.clock.now(),
      random,
      cwd: env.downloads,
      log: (level, message) => logs.push(`${level}: ${message}`),
      onEvent: (e) => counter.onEvent(e),
      beforeOutside,
    });
  } finally {
    await client.close();
  }
  if (recorder && c.cassette)
    recorder.save(c.cassette.path, { recipe: file.recipe.name, case: c.name, now: Date.now() }, client.redactor);
  return {
    report,
    writes: client.redactor.redactValue(traffic.writes()),
    misses: player?.misses.map((m) => client.redactor.redact(m)) ?? [],
    refused,
    logs,
    hits: counter.result(),
    bindings: { ...bindings, outputs: report.outputs },
  };
}

function connection(target: CaseTarget): ConnectionConfig {
  switch (target.kind) {
    case 'embedded':
      return { baseUrl: target.url, ...TEST_CREDENTIALS, workspace: 'default' };
    case 'live':
      return target.config;
    case 'cassette':
      // Never contacted: the cassette answers every request.
      return {
        baseUrl: 'http://cassette.invalid',
        clientId: 'cassette',
        clientSecret: 'cassette-replay',
        workspace: 'default',
      };
  }
}
