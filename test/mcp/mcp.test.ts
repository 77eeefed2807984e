import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadRecipe } from '../../src/compile/index.js';
import { startService, type RunningService } from '../../src/service/start.js';
import { startServerProcess, type ServerProcess } from '../triggers/triggers-process.js';

const root = new URL('../..', import.meta.url).pathname;
const bin = join(root, 'bin/recipe.js');
const recipes = join(root, 'recipes');
/** Runs on a loaded machine may outlast the SDK's 60 s default request timeout. */
const SLOW = { timeout: 120_000 };
const TOKEN = 'mcp-test-token-0123456789';

let service: RunningService;
let dir: string;
let env: Record<string, string>;

interface TriageResult {
  run_id: string;
  status: string;
  dry_run: boolean;
  outputs: { triaged: number };
  writes: { body: { entity: string; action: string } }[];
}

function cleanEnv(): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env))
    if (v !== undefined && !k.startsWith('CONNECTOR_') && k !== 'RECIPE_JOURNAL') out[k] = v;
  return { ...out, ...env };
}

beforeAll(async () => {
  service = await startService({ seed: 'demo', logLevel: 'silent' });
  dir = mkdtempSync(join(tmpdir(), 'recipe-mcp-'));
  env = {
    CONNECTOR_API_URL: service.url,
    CONNECTOR_CLIENT_ID: service.credentials.clientId,
    CONNECTOR_CLIENT_SECRET: service.credentials.clientSecret,
  };
}, 180_000);

afterAll(async () => {
  await service?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('recipe mcp over stdio (dry runs only)', { timeout: 240_000 }, () => {
  let client: Client;

  beforeAll(async () => {
    client = new Client({ name: 'mcp-test', version: '1.0.0' });
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [bin, 'mcp', '--recipes', recipes, '--journal', join(dir, 'runs.db')],
        cwd: dir,
        env: cleanEnv(),
        stderr: 'ignore',
      }),
    );
  }, 180_000);

  afterAll(async () => {
    await client?.close();
  });

  it('lists each shipped recipe as a tool with its inputs as the input schema, and the run tools', async () => {
    const { tools } = await client.listTools();
    const names = tools.map((t) => t.name).sort();
    expect(names).toEqual(
      [
        'company-rollup',
        'contacts-export',
        'deal-stage-snapshot',
        'deals-closing-this-month',
        'pipeline-report',
        'stale-deals-follow-up',
        'ticket-triage',
        'list_runs',
        'show_run',
      ].sort(),
    );
    const stale = tools.find((t) => t.name === 'stale-deals-follow-up')!;
    expect(stale.description).toContain('A follow-up task for every open deal');
    expect(stale.inputSchema).toMatchObject({
      type: 'object',
      additionalProperties: false,
      properties: {
        days: { type: 'integer', default: 30 },
        priority: { type: 'string', default: 'MEDIUM', enum: ['LOW', 'MEDIUM', 'HIGH'] },
        apply: { type: 'boolean', default: false },
      },
    });
    // Every tool's input properties are exactly its recipe's inputs plus apply.
    for (const tool of tools.filter((t) => !['list_runs', 'show_run'].includes(t.name))) {
      const { plan } = await loadRecipe(join(recipes, `${tool.name}.yaml`));
      expect(Object.keys(tool.inputSchema.properties ?? {}).sort()).toEqual(
        [...Object.keys(plan!.inputs), 'apply'].sort(),
      );
      expect(tool.outputSchema?.required).toEqual(['run_id', 'status', 'dry_run', 'outputs', 'writes']);
    }
  });

  it('a call is a dry run: the writes come back, none reaches the service, progress is reported', async () => {
    const progress: number[] = [];
    const first = await client.callTool({ name: 'ticket-triage', arguments: {} }, undefined, {
      onprogress: (p) => progress.push(p.progress),
      timeout: 120_000,
    });
    const result = first.structuredContent as unknown as TriageResult;
    expect(first.isError).toBeFalsy();
    expect(result).toMatchObject({ status: 'ok', dry_run: true });
    expect(result.outputs.triaged).toBeGreaterThan(0);
    expect(result.writes).toHaveLength(result.outputs.triaged * 2);
    expect(progress.length).toBeGreaterThan(0);
    // The journal counts no write sent, and records the caller.
    const shown = await client.callTool({ name: 'show_run', arguments: { run_id: result.run_id } }, undefined, SLOW);
    expect(shown.structuredContent).toMatchObject({
      run_id: result.run_id,
      writes: 0,
      dry_run: true,
      options: { origin: { kind: 'mcp', caller: { transport: 'stdio', client: 'mcp-test@1.0.0' } } },
    });
    // Nothing was written: the same tickets are still unowned.
    const again = await client.callTool({ name: 'ticket-triage', arguments: {} }, undefined, SLOW);
    expect((again.structuredContent as unknown as TriageResult).outputs.triaged).toBe(result.outputs.triaged);
    const listed = await client.callTool(
      { name: 'list_runs', arguments: { recipe: 'ticket-triage' } },
      undefined,
      SLOW,
    );
    expect((listed.structuredContent as { runs: unknown[] }).runs).toHaveLength(2);
  });

  it('refuses apply: true without --allow-writes, sending nothing', async () => {
    const refused = await client.callTool({ name: 'ticket-triage', arguments: { apply: true } }, undefined, SLOW);
    expect(refused.isError).toBe(true);
    expect((refused.content as { text: string }[])[0]!.text).toMatch(/^M002 /);
    const listed = await client.callTool(
      { name: 'list_runs', arguments: { recipe: 'ticket-triage' } },
      undefined,
      SLOW,
    );
    expect((listed.structuredContent as { runs: unknown[] }).runs).toHaveLength(2);
  });

  it('refuses invalid arguments as a tool error naming the input', async () => {
    const bad = await client.callTool(
      { name: 'stale-deals-follow-up', arguments: { priority: 'URGENT' } },
      undefined,
      SLOW,
    );
    expect(bad.isError).toBe(true);
    expect((bad.content as { text: string }[])[0]!.text).toMatch(/^M003 .*priority/);
  });
});

describe('recipe mcp over streamable HTTP with --allow-writes', { timeout: 240_000 }, () => {
  let server: ServerProcess;
  let client: Client;

  beforeAll(async () => {
    server = await startServerProcess(
      ['mcp', '--http', '--port', '0', '--allow-writes', '--recipes', recipes, '--journal', join(dir, 'runs.db')],
      'mcp',
      { cwd: dir, env: { ...env, RECIPE_MCP_TOKEN: TOKEN } },
    );
    client = new Client({ name: 'mcp-http-test', version: '2.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(server.url), {
        requestInit: { headers: { authorization: `Bearer ${TOKEN}` } },
      }),
    );
  }, 180_000);

  afterAll(async () => {
    await client?.close();
    await server?.stop();
  });

  it('refuses a request without the bearer token', async () => {
    const res = await fetch(server.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    expect(res.status).toBe(401);
  });

  it('with apply: true the writes are sent; without it, still a dry run', async () => {
    const dry = await client.callTool({ name: 'ticket-triage', arguments: {} }, undefined, SLOW);
    const dryResult = dry.structuredContent as unknown as TriageResult;
    expect(dryResult).toMatchObject({ dry_run: true });
    const pending = dryResult.outputs.triaged;
    expect(pending).toBeGreaterThan(0);
    const applied = await client.callTool({ name: 'ticket-triage', arguments: { apply: true } }, undefined, SLOW);
    const result = applied.structuredContent as unknown as TriageResult;
    expect(result).toMatchObject({ status: 'ok', dry_run: false, writes: [] });
    expect(result.outputs.triaged).toBe(pending);
    const shown = await client.callTool({ name: 'show_run', arguments: { run_id: result.run_id } }, undefined, SLOW);
    expect(shown.structuredContent).toMatchObject({
      writes: pending * 2,
      options: { origin: { kind: 'mcp', caller: { transport: 'http', client: 'mcp-http-test@2.0.0' } } },
    });
    const after = await client.callTool({ name: 'ticket-triage', arguments: {} }, undefined, SLOW);
    expect((after.structuredContent as unknown as TriageResult).outputs.triaged).toBe(0);
  });
});
