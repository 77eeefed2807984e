import { spawn, type ChildProcess } from 'node:child_process';

const bin = new URL('../../bin/recipe.js', import.meta.url).pathname;

/** `recipe console` as a child process (dist/, built by `npm run build`), stopped with stop(). */
export interface ConsoleProcess {
  /** The URL the console printed (with ?token= when it made one up). */
  readonly printed: string;
  /** The base URL, no trailing slash, no token. */
  readonly url: string;
  readonly child: ChildProcess;
  stderr(): string;
  /** SIGTERM, then the exit code. */
  stop(): Promise<number | null>;
}

/** Starts `recipe console ARGS` in `cwd` and waits for its "console at URL" line. */
export function startConsoleProcess(
  args: string[],
  opts: { cwd: string; env?: Record<string, string | undefined> },
): Promise<ConsoleProcess> {
  const env: Record<string, string | undefined> = { ...process.env, NO_COLOR: '1' };
  for (const k of ['CONNECTOR_API_URL', 'CONNECTOR_CLIENT_ID', 'CONNECTOR_CLIENT_SECRET', 'RECIPE_CONSOLE_TOKEN'])
    delete env[k];
  const child = spawn(process.execPath, [bin, 'console', ...args], {
    cwd: opts.cwd,
    env: { ...env, ...opts.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /console at (\S+)/.exec(out);
      if (!m?.[1]) return;
      const printed = m[1];
      resolve({
        printed,
        url: printed.replace(/\/(\?.*)?$/, ''),
        child,
        stderr: () => err,
        stop: async () => {
          if (child.exitCode === null) child.kill('SIGTERM');
          return exited;
        },
      });
    });
    child.on('error', reject);
    void exited.then((code) => reject(new Error(`recipe console exited (${code}) before listening: ${err}`)));
  });
}
