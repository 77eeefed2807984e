import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RecipeError } from '../../src/errors/index.js';
import { loadTriggers } from '../../src/triggers/trigger-file.js';
import { runCli } from '../cli/cli-process.js';

const root = new URL('../..', import.meta.url).pathname;
let dir: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'recipe-trigger-files-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function refusal(files: Record<string, string>): Promise<RecipeError> {
  const folder = mkdtempSync(join(dir, 't-'));
  for (const [name, text] of Object.entries(files)) writeFileSync(join(folder, name), text);
  try {
    await loadTriggers(folder);
  } catch (err) {
    return err as RecipeError;
  }
  throw new Error('loadTriggers accepted the folder');
}

describe('trigger files', { timeout: 240_000 }, () => {
  it('the shipped examples in triggers/ load', async () => {
    const triggers = await loadTriggers(join(root, 'triggers'));
    expect(triggers.map((t) => [t.name, t.secretEnv, t.dryRun])).toEqual([
      ['pipeline', 'PIPELINE_HOOK_SECRET', false],
      ['stale-deals', 'STALE_DEALS_HOOK_SECRET', true],
    ]);
  });

  it('a file without a signature is refused: unsigned only with signature: none', async () => {
    const e = await refusal({ 'a.yaml': 'recipe: r.yaml\n' });
    expect(e.code).toBe('G002');
    expect(e.message).toMatch(/a\.yaml:1:1: G002 \/signature: must have required property 'signature'/);
  });

  it('names the file, line and field of every problem in every file', async () => {
    const e = await refusal({
      'a.yaml': 'recipe: r.yaml\nsignature: none\nmax_body_bytes: lots\n',
      'b.yaml': 'recipe: r.yaml\nsignature: { secret_env: "not a name" }\n',
    });
    expect(e.message).toMatch(/a\.yaml:3:17: G002 \/max_body_bytes: must be integer/);
    expect(e.message).toMatch(/b\.yaml:2:\d+: G002 \/signature/);
  });

  it('refuses two triggers of one name', async () => {
    const e = await refusal({
      'a.yaml': 'name: same\nrecipe: r.yaml\nsignature: none\n',
      'b.yaml': 'name: same\nrecipe: r.yaml\nsignature: none\n',
    });
    expect(e.message).toContain('G003');
  });

  it("runs_on: fleet needs the fleet's store, named before the server starts (G040)", async () => {
    const cwd = mkdtempSync(join(dir, 'fleet-'));
    mkdirSync(join(cwd, 'triggers'));
    writeFileSync(
      join(cwd, 'triggers/f.yaml'),
      `recipe: ${join(root, 'recipes/pipeline-report.yaml')}\nsignature: none\nruns_on: fleet\n`,
    );
    expect((await loadTriggers(join(cwd, 'triggers')))[0]?.runsOn).toBe('fleet');
    const r = await runCli(['triggers', '--port', '0'], {
      cwd,
      env: { RECIPE_REDIS_URL: undefined, RECIPE_POSTGRES_URL: undefined },
    });
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(
      /triggers\/f\.yaml: runs_on: fleet needs the fleet's store: give `recipe triggers` --redis/,
    );
  });

  it('recipe triggers refuses another interface than loopback without a token, and a missing secret', async () => {
    const cwd = mkdtempSync(join(dir, 'cli-'));
    mkdirSync(join(cwd, 'triggers'));
    writeFileSync(
      join(cwd, 'triggers/p.yaml'),
      `recipe: ${join(root, 'recipes/pipeline-report.yaml')}\nsignature: { secret_env: P_SECRET }\n`,
    );
    const fixtures = join(root, 'recipes/crm-small.fixtures.yaml');
    const noSecret = await runCli(['triggers', '--port', '0', '--fixtures', fixtures], { cwd });
    expect(noSecret.code).toBe(3);
    expect(noSecret.stderr).toContain('G004');
    const open = await runCli(['triggers', '--host', '0.0.0.0', '--port', '0', '--fixtures', fixtures], {
      cwd,
      env: { P_SECRET: 'secret-value-0123456789' },
    });
    expect(open.code).toBe(2);
    expect(open.stderr).toMatch(/G006 --host 0\.0\.0\.0 .*token/);
    expect(open.stderr + open.stdout).not.toContain('secret-value-0123456789');
  });
});
