import { spawn } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll } from 'vitest';

/** The CLI as a child process (dist/, built by `npm run build`). */
export const BIN = new URL('../../bin/recipe.js', import.meta.url).pathname;
export const RECIPES = new URL('../../recipes/', import.meta.url).pathname;
export const SCHEMAS = new URL('../../schemas/', import.meta.url).pathname;

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `recipe ARGS...` with a clean connector environment plus `env`. */
export function recipe(
  args: string[],
  opts: { env?: Record<string, string | undefined>; cwd?: string } = {},
): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const clean: Record<string, string | undefined> = { ...process.env, NO_COLOR: '1' };
    for (const k of [
      'CONNECTOR_API_URL',
      'CONNECTOR_CLIENT_ID',
      'CONNECTOR_CLIENT_SECRET',
      'CONNECTOR_WORKSPACE',
      'GITHUB_ACTIONS',
    ])
      delete clean[k];
    const child = spawn(process.execPath, [BIN, ...args], {
      env: { ...clean, ...opts.env },
      cwd: opts.cwd ?? process.cwd(),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** Copies made by the importing test file, removed after its tests (registered when this module loads). */
const copies: string[] = [];
afterAll(() => {
  for (const dir of copies.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A copy of recipes/ (and schemas/, for the modelines) in a temporary folder; returns the copy's recipes/. */
export function copyRecipes(): string {
  const root = mkdtempSync(path.join(tmpdir(), 'recipe-test-copy-'));
  copies.push(root);
  cpSync(RECIPES, path.join(root, 'recipes'), { recursive: true });
  cpSync(SCHEMAS, path.join(root, 'schemas'), { recursive: true });
  return path.join(root, 'recipes');
}

/** The 1-based line of the first line of `text` that contains `needle` (after line `from`). */
export function lineOf(text: string, needle: string, from = 0): number {
  const lines = text.split('\n');
  for (let i = from; i < lines.length; i++) if (lines[i]?.includes(needle)) return i + 1;
  throw new Error(`"${needle}" not found`);
}
