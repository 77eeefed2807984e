import { mkdtempSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { ConnectorClient, type ClientOptions } from '../../src/client/index.js';
import { loadRecipe, resolveInputs } from '../../src/compile/index.js';
import type { Plan } from '../../src/compile/plan.js';
import type { JournalStore } from '../../src/journal/index.js';
import { beginRun, runPlan, type RunOptions, type RunReport } from '../../src/run/index.js';

/** A temp folder to write recipes into. */
export function tempDir(): string {
  return mkdtempSync(join(tmpdir(), 'recipe-run-'));
}

/** Writes files (path → text) under dir. */
export function writeFiles(dir: string, files: Record<string, string>): void {
  for (const [path, text] of Object.entries(files)) {
    const full = join(dir, path);
    mkdirSync(dirname(full), { recursive: true });
    writeFileSync(full, text);
  }
}

/** Loads a recipe through the real compiler; fails the test with its diagnostics when it is invalid. */
export async function compile(file: string): Promise<Plan> {
  const { plan, diagnostics } = await loadRecipe(file);
  if (!plan)
    throw new Error(
      `recipe invalid:\n${diagnostics.map((d) => `${d.line}:${d.column} ${d.code} ${d.message}`).join('\n')}`,
    );
  return plan;
}

/** A client for a base URL with the test credentials; sleeps are instant (and recorded). */
export function testClient(
  baseUrl: string,
  creds: { clientId: string; clientSecret: string },
  extra: Partial<ClientOptions> = {},
): ConnectorClient {
  return new ConnectorClient({
    baseUrl,
    workspace: 'default',
    ...creds,
    deps: { sleep: async () => undefined },
    ...extra,
  });
}

export interface RunResult {
  report: RunReport;
  logs: string[];
}

/** Compiles `yaml` (written as main.yaml in dir, with optional other files) and runs it. */
export async function runYaml(
  dir: string,
  yaml: string,
  client: ConnectorClient,
  opts: { inputs?: Record<string, unknown>; files?: Record<string, string> } & Partial<RunOptions> = {},
): Promise<RunResult> {
  writeFiles(dir, { 'main.yaml': yaml, ...(opts.files ?? {}) });
  const plan = await compile(join(dir, 'main.yaml'));
  const { values, diagnostics } = resolveInputs(plan, opts.inputs ?? {});
  if (diagnostics.length) throw new Error(diagnostics.map((d) => d.message).join('\n'));
  const logs: string[] = [];
  const report = await runPlan(plan, {
    client,
    redactor: client.redactor,
    sleep: async () => undefined,
    cwd: dir,
    log: (level, m) => logs.push(`${level}: ${m}`),
    ...opts,
    inputs: values,
  });
  return { report, logs };
}

/** Begins a run of `plan` in `store` (as `recipe run` does) and runs it, journaled; sleeps are instant. */
export async function runJournaled(
  plan: Plan,
  store: JournalStore,
  client: ConnectorClient,
  opts: { runId?: string } & Partial<RunOptions> = {},
): Promise<RunReport> {
  const { inputs = {}, env = {}, runId, ...extra } = opts;
  const durable = await beginRun({
    store,
    plan,
    inputs,
    ...(runId ? { runId } : {}),
    dryRun: false,
    redactor: client.redactor,
    env,
  });
  return runPlan(plan, {
    client,
    redactor: client.redactor,
    inputs,
    env,
    sleep: async () => undefined,
    durable,
    ...extra,
  });
}
