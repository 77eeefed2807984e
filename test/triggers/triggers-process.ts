import { spawn, type ChildProcess } from 'node:child_process';

const bin = new URL('../../bin/recipe.js', import.meta.url).pathname;

/** A long-running `recipe` server command (triggers, mcp --http) as a child process, stopped with stop(). */
export interface ServerProcess {
  /** The URL it printed, no trailing slash. */
  readonly url: string;
  readonly child: ChildProcess;
  stderr(): string;
  /** SIGTERM, then the exit code. */
  stop(): Promise<number | null>;
}

/** Starts `recipe ARGS` in `cwd` and waits for its "<what> at URL" line on stdout. */
export function startServerProcess(
  args: string[],
  what: string,
  opts: { cwd: string; env?: Record<string, string | undefined> },
): Promise<ServerProcess> {
  const env: Record<string, string | undefined> = { ...process.env, NO_COLOR: '1' };
  for (const k of ['CONNECTOR_API_URL', 'CONNECTOR_CLIENT_ID', 'CONNECTOR_CLIENT_SECRET', 'RECIPE_JOURNAL'])
    delete env[k];
  const child = spawn(process.execPath, [bin, ...args], {
    cwd: opts.cwd,
    env: { ...env, ...opts.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  const pattern = new RegExp(`${what} at (\\S+)`);
  return new Promise((resolve, reject) => {
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      const m = pattern.exec(out);
      if (!m?.[1]) return;
      resolve({
        url: m[1].replace(/\/$/, ''),
        child,
        stderr: () => err,
        stop: async () => {
          if (child.exitCode === null) child.kill('SIGTERM');
          return exited;
        },
      });
    });
    child.on('error', reject);
    void exited.then((code) => reject(new Error(`recipe ${args[0]} exited (${code}) before listening: ${err}`)));
  });
}
