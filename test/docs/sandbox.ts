import { spawn } from 'node:child_process';
import { chmodSync, cpSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { ROOT } from './doc-examples.js';

const BIN = join(ROOT, 'bin/recipe.js');

/**
 * A temporary folder laid out like a checkout for doc examples: a copy of recipes/ (so `recipes/...` paths
 * and `call: ./lib/...` resolve) and a bin/ folder put first on PATH where `npx recipe` and `recipe` run
 * this repository's CLI (dist/), as they do in a project that installed it: no registry is ever asked.
 */
export function makeSandbox(prefix: string): { dir: string; path: string } {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  cpSync(join(ROOT, 'recipes'), join(dir, 'recipes'), { recursive: true });
  const bin = join(dir, '.bin');
  mkdirSync(bin);
  const node = process.execPath;
  writeFileSync(
    join(bin, 'npx'),
    `#!/bin/sh\nif [ "$1" = recipe ]; then shift; exec "${node}" "${BIN}" "$@"; fi\necho "doc example: only 'npx recipe' is available here, not npx $1" >&2\nexit 127\n`,
  );
  writeFileSync(join(bin, 'recipe'), `#!/bin/sh\nexec "${node}" "${BIN}" "$@"\n`);
  chmodSync(join(bin, 'npx'), 0o755);
  chmodSync(join(bin, 'recipe'), 0o755);
  return { dir, path: `${bin}${delimiter}${process.env.PATH ?? ''}` };
}

/** Runs a bash script (set -e, pipefail) in `cwd`; resolves with its exit code and output. */
export function bash(
  script: string,
  cwd: string,
  env: Record<string, string | undefined>,
  timeoutMs = 120_000,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn('bash', ['-c', `set -eo pipefail\n${script}`], {
      cwd,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(() => {
      stderr += `\n[doc example] killed after ${timeoutMs} ms: a command that does not end by itself (a server?) cannot be marked runnable\n`;
      child.kill('SIGKILL');
    }, timeoutMs);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

/** The environment for doc examples: the test's, without colour or connector settings, plus `extra`. */
export function exampleEnv(path: string, extra: Record<string, string> = {}): Record<string, string | undefined> {
  const env: Record<string, string | undefined> = { ...process.env, PATH: path };
  for (const k of ['CONNECTOR_API_URL', 'CONNECTOR_CLIENT_ID', 'CONNECTOR_CLIENT_SECRET', 'CONNECTOR_WORKSPACE'])
    delete env[k];
  for (const k of ['FORCE_COLOR', 'NO_COLOR']) delete env[k];
  // The examples show a developer's terminal; CI runners set CI=true, which makes `recipe deps install`
  // frozen. The examples about CI export it themselves.
  delete env.CI;
  return { ...env, ...extra };
}
