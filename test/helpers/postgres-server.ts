import { execFile, execFileSync } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer, Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A real PostgreSQL server for a test, on 127.0.0.1, from a fresh data directory in its own temporary directory. */
export interface PostgresServer {
  /** postgres://postgres@127.0.0.1:PORT/postgres (trust authentication, loopback only) */
  readonly url: string;
  readonly port: number;
  /** The data directory (kept across kill9/restart, deleted by stop). */
  readonly dataDir: string;
  /** Stops the server and deletes its directory. Safe to call twice, also after kill9. */
  stop(): Promise<void>;
  /**
   * SIGKILLs the postmaster and every process it started, all at once (as a crash of the machine's PostgreSQL
   * would), and waits until they are gone. Nothing is flushed or shut down cleanly.
   */
  kill9(): Promise<void>;
  /** Starts the server again on the same data directory and port: after kill9 this is crash recovery (WAL replay). */
  restart(): Promise<void>;
}

const START_TIMEOUT_S = 30;

/**
 * Where the PostgreSQL programs are: PG_BIN, else /usr/local/bin (our machines link PostgreSQL 15 there), else the
 * newest /usr/lib/postgresql/N/bin (the Debian package `postgresql`), else the PATH.
 */
function pgBinDir(): string {
  if (process.env.PG_BIN) return process.env.PG_BIN;
  if (existsSync('/usr/local/bin/initdb') && existsSync('/usr/local/bin/pg_ctl')) return '/usr/local/bin';
  const base = '/usr/lib/postgresql';
  if (existsSync(base)) {
    const versions = readdirSync(base)
      .filter((v) => existsSync(join(base, v, 'bin', 'initdb')))
      .sort((a, b) => Number(b) - Number(a));
    if (versions[0]) return join(base, versions[0], 'bin');
  }
  return '';
}

function program(name: string): string {
  const dir = pgBinDir();
  return dir ? join(dir, name) : name;
}

/**
 * PostgreSQL refuses to run as root, and CI runs as root: then the data directory belongs to the `postgres` user and
 * initdb/pg_ctl run through `runuser -u postgres --`. As any other user they run directly.
 */
function asServerUser(command: string, args: readonly string[]): [string, string[]] {
  if (process.getuid?.() === 0) return ['runuser', ['-u', 'postgres', '--', command, ...args]];
  return [command, [...args]];
}

function run(command: string, args: readonly string[], timeoutMs = 60_000): Promise<void> {
  const [file, argv] = asServerUser(command, args);
  return new Promise((resolve, reject) => {
    execFile(file, argv, { timeout: timeoutMs, encoding: 'utf8' }, (err, stdout, stderr) => {
      if (err) reject(new Error(`${command} ${args.join(' ')} failed: ${err.message}\n${stdout}${stderr}`.trim()));
      else resolve();
    });
  });
}

/** uid and gid of the `postgres` user (who runs the server when we are root). */
function postgresUser(): { uid: number; gid: number } {
  try {
    const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim());
    const gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim());
    return { uid, gid };
  } catch {
    throw new Error(
      'cannot start PostgreSQL as root: there is no `postgres` user (install the Debian package postgresql, which creates it)',
    );
  }
}

/** Every server a test started, killed when the test process exits so no postmaster outlives its test. */
const running = new Set<() => void>();
let exitHookInstalled = false;
function onExitKill(kill: () => void): () => void {
  if (!exitHookInstalled) {
    exitHookInstalled = true;
    process.once('exit', () => {
      for (const k of running) k();
    });
  }
  running.add(kill);
  return () => running.delete(kill);
}

/**
 * Starts PostgreSQL on a free port from a fresh data directory (initdb), fsync on, trust authentication for
 * 127.0.0.1 only, its Unix socket inside the temporary directory. It never skips: when the server cannot start,
 * this throws with the reason (programs not installed, initdb's or the server's own output), so a test that needs
 * PostgreSQL fails and says why. .ci/run installs the Debian package `postgresql` when initdb is missing.
 */
export async function startPostgresServer(): Promise<PostgresServer> {
  const initdb = program('initdb');
  const pgCtl = program('pg_ctl');
  if (!pgBinDir() && !onPath('initdb')) {
    throw new Error('cannot start PostgreSQL: initdb not found (set PG_BIN, or install the Debian package postgresql)');
  }
  const dir = mkdtempSync(join(tmpdir(), 'recipe-postgres-'));
  const dataDir = join(dir, 'data');
  const logFile = join(dir, 'server.log');
  if (process.getuid?.() === 0) {
    const { uid, gid } = postgresUser();
    chownSync(dir, uid, gid);
  }
  chmodSync(dir, 0o700);
  try {
    // --no-sync: the freshly made cluster need not survive an OS crash; the server itself runs with fsync on.
    await run(initdb, ['-D', dataDir, '-U', 'postgres', '--auth=trust', '--encoding=UTF8', '--locale=C', '--no-sync']);
  } catch (err) {
    rmSync(dir, { recursive: true, force: true });
    throw new Error(`cannot start PostgreSQL: ${(err as Error).message}`);
  }

  let port = 0;
  const serverOptions = (): string =>
    [
      `-p ${port}`,
      `-k ${dir}`,
      '-c listen_addresses=127.0.0.1',
      '-c fsync=on',
      '-c synchronous_commit=on',
      '-c full_page_writes=on',
      // Small: many servers may run at once on a small machine.
      '-c shared_buffers=16MB',
      '-c max_connections=100',
    ].join(' ');
  const startServer = (): Promise<void> =>
    run(
      pgCtl,
      ['start', '-w', '-t', String(START_TIMEOUT_S), '-D', dataDir, '-l', logFile, '-o', serverOptions()],
      (START_TIMEOUT_S + 10) * 1000,
    );

  let lastError = '';
  let started = false;
  // A port found free can be taken before the server binds it: try a few.
  for (let tries = 0; tries < 3 && !started; tries++) {
    port = await freePort();
    try {
      await startServer();
      started = await accepts(port);
      if (!started) lastError = `it does not accept connections on 127.0.0.1:${port}`;
    } catch (err) {
      lastError = `${(err as Error).message}\n${tail(logFile)}`;
      if (!/already in use/i.test(lastError)) break;
    }
  }
  if (!started) {
    killTree(postmasterPid(dataDir));
    rmSync(dir, { recursive: true, force: true });
    throw new Error(`cannot start PostgreSQL (${pgCtl}): ${lastError}`);
  }

  const forget = onExitKill(() => killTree(postmasterPid(dataDir)));
  let stopping: Promise<void> | undefined;
  const server: PostgresServer = {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    port,
    dataDir,
    stop: () =>
      (stopping ??= (async () => {
        forget();
        const pid = postmasterPid(dataDir);
        if (pid && alive(pid)) {
          // Immediate: the data directory is deleted next, nothing in it needs to be flushed.
          await run(pgCtl, ['stop', '-w', '-m', 'immediate', '-D', dataDir], 20_000).catch(() => undefined);
        }
        await waitGone(killTree(postmasterPid(dataDir)));
        rmSync(dir, { recursive: true, force: true });
      })()),
    kill9: async () => {
      const pid = postmasterPid(dataDir);
      if (!pid) throw new Error('kill9: PostgreSQL is not running (no postmaster.pid)');
      await waitGone(killTree(pid));
      // The killed postmaster may linger as a zombie until its new parent reaps it, and PostgreSQL would take that
      // pid for a live server; every process of the cluster is dead, as after a reboot, so its lock files go.
      rmSync(join(dataDir, 'postmaster.pid'), { force: true });
      rmSync(join(dir, `.s.PGSQL.${port}.lock`), { force: true });
      rmSync(join(dir, `.s.PGSQL.${port}`), { force: true });
    },
    restart: async () => {
      try {
        await startServer();
      } catch (err) {
        throw new Error(`cannot restart PostgreSQL: ${(err as Error).message}\n${tail(logFile)}`);
      }
      if (!(await accepts(port))) throw new Error(`PostgreSQL restarted but does not accept connections on ${port}`);
    },
  };
  return server;
}

/** The postmaster's pid from the first line of postmaster.pid, if the file is there. */
function postmasterPid(dataDir: string): number | undefined {
  try {
    const pid = Number(readFileSync(join(dataDir, 'postmaster.pid'), 'utf8').split('\n')[0]);
    return Number.isInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}

/** SIGKILLs pid and its children (the backends, checkpointer, WAL writer, ...) at once; returns the pids killed. */
function killTree(pid: number | undefined): number[] {
  if (!pid || !alive(pid)) return [];
  const pids = [pid, ...childrenOf(pid)];
  for (const p of pids) {
    try {
      process.kill(p, 'SIGKILL');
    } catch {
      // already gone
    }
  }
  return pids;
}

function childrenOf(pid: number): number[] {
  const children: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      // Field 4 (ppid) follows the command name in parentheses, which may contain spaces.
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid === pid) children.push(Number(entry));
    } catch {
      // the process ended while we looked
    }
  }
  return children;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    // A zombie still answers signal 0; it is gone for our purposes.
    return !/^\S+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
}

async function waitGone(pids: readonly number[]): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (pids.some(alive)) {
    if (Date.now() > deadline) throw new Error(`PostgreSQL processes ${pids.filter(alive).join(', ')} did not die`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

function onPath(name: string): boolean {
  try {
    execFileSync('sh', ['-c', `command -v ${name}`], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

function tail(file: string): string {
  try {
    return readFileSync(file, 'utf8').trim().slice(-800);
  } catch {
    return '';
  }
}

/** True once something accepts a TCP connection on 127.0.0.1:port (pg_ctl -w already waited for readiness). */
function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = new Socket();
    const done = (ok: boolean): void => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(2000, () => done(false));
    socket.once('error', () => done(false));
    socket.connect(port, '127.0.0.1', () => done(true));
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
