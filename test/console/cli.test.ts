import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

/** `recipe console` refusing to start: bad flags, a short token, an incomplete service configuration. */
const bin = new URL('../../bin/recipe.js', import.meta.url).pathname;
const cwd = mkdtempSync(join(tmpdir(), 'recipe-console-cli-'));
afterAll(() => rmSync(cwd, { recursive: true, force: true }));

function recipeConsole(
  args: string[],
  env: Record<string, string> = {},
): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve, reject) => {
    const clean: Record<string, string | undefined> = { ...process.env };
    for (const k of ['CONNECTOR_API_URL', 'CONNECTOR_CLIENT_ID', 'CONNECTOR_CLIENT_SECRET', 'RECIPE_CONSOLE_TOKEN'])
      delete clean[k];
    const child = spawn(process.execPath, [bin, 'console', ...args], {
      cwd,
      env: { ...clean, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stderr }));
  });
}

describe('recipe console: refusals', () => {
  it('exits 2 on a --redis that is not a redis:// URL, or with --journal too', async () => {
    const url = await recipeConsole(['--redis', 'http://127.0.0.1:6379']);
    expect(url.code).toBe(2);
    expect(url.stderr).toContain('is not a redis:// URL');
    const both = await recipeConsole(['--redis', 'redis://127.0.0.1:1', '--journal', 'x.db']);
    expect(both.code).toBe(2);
    expect(both.stderr).toContain('give --journal or --redis/--postgres, not both');
  });

  it('exits 2 on a bad port or empty host, naming the flag', async () => {
    const port = await recipeConsole(['--port', 'eighty']);
    expect(port.code).toBe(2);
    expect(port.stderr).toContain('--port must be a whole number from 0 to 65535, got "eighty"');
    expect((await recipeConsole(['--port', '70000'])).code).toBe(2);
    expect((await recipeConsole(['--host', ' '])).code).toBe(2);
  });

  it('exits 2 on a token shorter than 16 characters, without printing it', async () => {
    const r = await recipeConsole(['--port', '0'], { RECIPE_CONSOLE_TOKEN: 'short-tok' });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('the token must be at least 16 characters');
    expect(r.stderr).not.toContain('short-tok');
  });

  it('exits 3 when --base-url comes without credentials', async () => {
    const r = await recipeConsole(['--port', '0', '--base-url', 'http://127.0.0.1:9']);
    expect(r.code).toBe(3);
    expect(r.stderr).toContain('CONNECTOR_CLIENT_ID');
  });
});
