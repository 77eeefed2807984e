import { spawn, type ChildProcess } from 'node:child_process';
import { RECIPE_BIN } from '../cli/cli-process.js';
import { listeningUrl, notesAt } from '../helpers/serve-process.js';

/**
 * The fleet's processes for tests, all real: `recipe serve` on a database file, `recipe worker`s, and
 * `recipe submit`/`runs`/`schedule` as the CLI runs them. Only 127.0.0.1.
 */

export const CLIENT = { id: 'fleet-app', secret: 'fleet-secret-0123456789' };

/** A child `recipe` process and what it printed so far. */
export interface RecipeProcess {
  readonly child: ChildProcess;
  readonly output: () => string;
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** The environment of every fleet process: clean of the developer's CONNECTOR_* and colours. */
export function fleetEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: '1' };
  for (const k of Object.keys(env))
    if (
      k.startsWith('CONNECTOR_') ||
      k === 'RECIPE_JOURNAL' ||
      k === 'RECIPE_REDIS_URL' ||
      k === 'RECIPE_POSTGRES_URL' ||
      k === 'FORCE_COLOR'
    )
      delete env[k];
  return { ...env, ...extra };
}

export function spawnRecipe(args: readonly string[], env: NodeJS.ProcessEnv, cwd: string): RecipeProcess {
  const child = spawn(process.execPath, [RECIPE_BIN, ...args], { env, cwd, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout?.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (output += d.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('close', (code, signal) => resolve({ code, signal })),
  );
  return { child, output: () => output, exited };
}

/** Starts `recipe serve` on `db`; resolves with its URL. */
export async function startServe(db: string, cwd: string): Promise<{ url: string; proc: RecipeProcess }> {
  const proc = spawnRecipe(
    [
      'serve',
      '--db',
      db,
      '--port',
      '0',
      '--seed-size',
      '5',
      '--client-id',
      CLIENT.id,
      '--client-secret',
      CLIENT.secret,
    ],
    fleetEnv({}),
    cwd,
  );
  const url = await listeningUrl(
    proc.child,
    proc.exited.then((r) => `exited ${r.code}: ${proc.output()}`),
  );
  return { url, proc };
}

/** Stops a process (SIGTERM, then SIGKILL after 10 s) and waits for it. */
export async function stopProcess(p: RecipeProcess | undefined): Promise<void> {
  if (!p || p.child.exitCode !== null || p.child.signalCode !== null) return;
  const timer = setTimeout(() => p.child.kill('SIGKILL'), 10_000);
  p.child.kill('SIGTERM');
  await p.exited;
  clearTimeout(timer);
}

/** body → how many notes have it, for the notes whose body starts with `prefix` (test/helpers/serve-process.ts). */
export const notesLike = notesAt;

/**
 * Waits until every worker says it takes jobs ("taking jobs from queue"); fails at once, with its output, when
 * one exits first, and after `ms` otherwise.
 */
export async function untilReady(workers: readonly RecipeProcess[], ms = 30_000): Promise<void> {
  await until(
    `${workers.length} worker(s) ready`,
    ms,
    async () => {
      const dead = workers.find((w) => w.child.exitCode !== null || w.child.signalCode !== null);
      if (dead) throw new Error(`a worker exited before it took jobs:\n${dead.output()}`);
      return workers.every((w) => w.output().includes('taking jobs')) ? true : undefined;
    },
    50,
  );
}

/** Polls `check` every `everyMs` until it returns a value other than undefined, or throws after `ms`. */
export async function until<T>(
  what: string,
  ms: number,
  check: () => Promise<T | undefined>,
  everyMs = 100,
): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}
