import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer, Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A real redis-server for a test, on 127.0.0.1, in its own temporary directory. */
export interface RedisServer {
  /** redis://127.0.0.1:PORT */
  readonly url: string;
  readonly port: number;
  /** Stops the server (SIGTERM, then SIGKILL) and deletes its directory. Safe to call twice. */
  stop(): Promise<void>;
}

/** REDIS_SERVER, else where the Debian package puts the server, else redis-server on the PATH. */
const REDIS_SERVER =
  process.env.REDIS_SERVER ?? (existsSync('/usr/bin/redis-server') ? '/usr/bin/redis-server' : 'redis-server');
const START_TIMEOUT_MS = 10_000;

/**
 * Starts `redis-server` on a free port. It never skips: when the server cannot start, this throws with the
 * reason (not installed, its own error output), so a test that needs Redis fails and says why. .ci/run
 * installs the Debian package `redis-server` when it is missing.
 */
export async function startRedisServer(extraArgs: readonly string[] = []): Promise<RedisServer> {
  let lastError = '';
  // A port found free can be taken before the server binds it: try a few.
  for (let tries = 0; tries < 3; tries++) {
    const port = await freePort();
    const dir = mkdtempSync(join(tmpdir(), 'recipe-redis-'));
    const args = [
      '--port',
      String(port),
      '--bind',
      '127.0.0.1',
      '--dir',
      dir,
      '--save',
      '',
      '--appendonly',
      'no',
      '--protected-mode',
      'yes',
      // BullMQ requires that Redis never evicts its keys.
      '--maxmemory-policy',
      'noeviction',
      ...extraArgs,
    ];
    const child = spawn(REDIS_SERVER, args, { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout?.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr?.on('data', (d: Buffer) => (output += d.toString()));
    const started = await waitReady(child, port, () => output);
    if (started === true) {
      return { url: `redis://127.0.0.1:${port}`, port, stop: stopper(child, dir) };
    }
    lastError = started;
    await stopper(child, dir)();
    if (!/address already in use/i.test(output)) break;
  }
  throw new Error(`cannot start redis-server (${REDIS_SERVER}): ${lastError}`);
}

/** True once the server answers PING; else the reason it did not. */
async function waitReady(child: ChildProcess, port: number, output: () => string): Promise<true | string> {
  let spawnError: Error | undefined;
  let exited: number | string | null | undefined;
  child.once('error', (err) => (spawnError = err));
  child.once('exit', (code, signal) => (exited = code ?? signal));
  const deadline = Date.now() + START_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (spawnError) return `${spawnError.message} (install the Debian package redis-server)`;
    if (exited !== undefined) return `it exited (${String(exited)}): ${output().trim().slice(-600)}`;
    if (await pings(port)) return true;
    await new Promise((r) => setTimeout(r, 50));
  }
  return `it did not answer PING within ${START_TIMEOUT_MS} ms: ${output().trim().slice(-600)}`;
}

function pings(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = new Socket();
    let answer = '';
    const done = (ok: boolean): void => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(500, () => done(false));
    socket.once('error', () => done(false));
    socket.on('data', (d) => {
      answer += d.toString();
      if (answer.includes('\r\n')) done(answer.startsWith('+PONG'));
    });
    socket.connect(port, '127.0.0.1', () => socket.write('PING\r\n'));
  });
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

function stopper(child: ChildProcess, dir: string): () => Promise<void> {
  let stopping: Promise<void> | undefined;
  return () =>
    (stopping ??= (async () => {
      if (child.exitCode === null && child.signalCode === null) {
        const exited = new Promise<void>((r) => child.once('exit', () => r()));
        child.kill('SIGTERM');
        const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
        await exited;
        clearTimeout(timer);
      }
      rmSync(dir, { recursive: true, force: true });
    })());
}
