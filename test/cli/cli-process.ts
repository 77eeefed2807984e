import { spawn, type ChildProcess } from 'node:child_process';

/** The real CLI (bin/recipe.js → dist/, built by `npm run build`), run as a child process. */
export const RECIPE_BIN = new URL('../../bin/recipe.js', import.meta.url).pathname;

/** What a finished `recipe` process left. */
export interface CliResult {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Variables that would point a run at some other service or colour the output. */
const SCRUBBED = [
  'CONNECTOR_API_URL',
  'CONNECTOR_CLIENT_ID',
  'CONNECTOR_CLIENT_SECRET',
  'CONNECTOR_WORKSPACE',
  'FORCE_COLOR',
  'NO_COLOR',
];

/**
 * Runs `recipe ARGS` in `cwd` with a clean environment plus `env`, and collects its output.
 * `onStart` gets the child (e.g. to close its stdout early); `timeoutMs` kills a process that hangs.
 */
export function runCli(
  args: readonly string[],
  opts: {
    cwd?: string;
    env?: Record<string, string | undefined>;
    onStart?: (child: ChildProcess) => void;
    timeoutMs?: number;
  } = {},
): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const env: Record<string, string | undefined> = { ...process.env };
    for (const k of SCRUBBED) delete env[k];
    const child = spawn(process.execPath, [RECIPE_BIN, ...args], {
      cwd: opts.cwd ?? process.cwd(),
      env: { ...env, ...opts.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stdout.on('error', () => undefined);
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), opts.timeoutMs ?? 60_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
    opts.onStart?.(child);
  });
}
