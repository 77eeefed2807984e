import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../cli/cli-process.js';

/** The fleet commands' usage errors: found before anything is enqueued, exit 2 (3 for an unreachable Redis). */
let dir: string;
const env = {
  CONNECTOR_API_URL: 'http://127.0.0.1:1',
  CONNECTOR_CLIENT_ID: 'x',
  CONNECTOR_CLIENT_SECRET: 'y',
  RECIPE_REDIS_URL: '',
};

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'recipe-fleet-usage-'));
  mkdirSync(join(dir, 'recipes'));
  const recipe = `version: 1
name: one
connector: { workspace: default, definition: CRM }
steps:
  - id: list
    execute: { entity: contacts, action: list, params: { limit: 1 } }
`;
  writeFileSync(join(dir, 'recipes', 'one.yaml'), recipe);
  writeFileSync(join(dir, 'outside.yaml'), recipe);
  writeFileSync(join(dir, 'recipes', 'broken.yaml'), 'version: 1\nname: broken\nsteps: []\n');
});

const cli = (args: string[]) => runCli(args, { cwd: dir, env, timeoutMs: 30_000 });

describe('fleet commands: usage errors', () => {
  it('needs --redis (or RECIPE_REDIS_URL), a redis:// URL and a reachable Redis', async () => {
    const none = await cli(['submit', 'recipes/one.yaml', '--recipes', 'recipes']);
    expect([none.code, none.stderr]).toEqual([2, expect.stringContaining('F006 --redis')]);
    const http = await cli(['schedule', 'list', '--redis', 'http://127.0.0.1:6379']);
    expect([http.code, http.stderr]).toEqual([2, expect.stringContaining('F006')]);
    const down = await cli(['submit', 'recipes/one.yaml', '--recipes', 'recipes', '--redis', 'redis://127.0.0.1:1']);
    expect([down.code, down.stderr]).toEqual([3, expect.stringContaining('F001 cannot reach Redis')]);
  });

  it('submit checks the recipe here: invalid (exit 2, its diagnostics), outside --recipes (F002), a bad run id', async () => {
    const url = ['--redis', 'redis://127.0.0.1:1'];
    const broken = await cli(['submit', 'recipes/broken.yaml', '--recipes', 'recipes', ...url]);
    expect(broken.code).toBe(2);
    expect(broken.stderr).toMatch(/broken\.yaml:\d+:\d+: S\d{3}/);
    const outside = await cli(['submit', 'outside.yaml', '--recipes', 'recipes', ...url]);
    expect([outside.code, outside.stderr]).toEqual([2, expect.stringContaining('F002')]);
    const id = await cli(['submit', 'recipes/one.yaml', '--recipes', 'recipes', '--run-id', '../x', ...url]);
    expect([id.code, id.stderr]).toEqual([2, expect.stringContaining('F006 --run-id')]);
  });

  it('worker refuses a recipes directory that is not one; schedule add needs exactly one of --cron and --every', async () => {
    const worker = await cli(['worker', '--redis', 'redis://127.0.0.1:1', '--recipes', 'nowhere']);
    expect([worker.code, worker.stderr]).toEqual([2, expect.stringContaining('F006 --recipes nowhere')]);
    const both = await cli([
      'schedule',
      'add',
      's',
      'recipes/one.yaml',
      '--cron',
      '* * * * *',
      '--every',
      '1m',
      '--redis',
      'redis://127.0.0.1:1',
    ]);
    expect([both.code, both.stderr]).toEqual([2, expect.stringContaining('F006 --cron / --every')]);
  });
});
