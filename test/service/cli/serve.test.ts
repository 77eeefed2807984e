import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt, recipeBin } from '../support/build.js';

beforeAll(() => ensureBuilt(), 120_000);

const children: ChildProcess[] = [];
const dirs: string[] = [];
afterEach(() => {
  for (const c of children.splice(0)) if (c.exitCode === null) c.kill('SIGKILL');
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

interface Served {
  child: ChildProcess;
  url: string;
  stdout: () => string;
  stderr: () => string;
  exited: Promise<number | null>;
}

/** Starts `recipe serve ARGS` and resolves once it printed its listening line. */
function serve(args: string[], opts: { cwd?: string; env?: NodeJS.ProcessEnv } = {}): Promise<Served> {
  const child = spawn(process.execPath, [recipeBin, 'serve', ...args], {
    cwd: opts.cwd ?? tmp(),
    env: { ...process.env, CONNECTOR_CLIENT_ID: '', CONNECTOR_CLIENT_SECRET: '', ...opts.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let out = '';
  let err = '';
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /^listening on (http:\/\/\S+)\n/m.exec(out);
      if (m) resolve({ child, url: m[1]!, stdout: () => out, stderr: () => err, exited });
    });
    child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
    void exited.then((code) => reject(new Error(`serve exited with ${code} before listening: ${err}`)));
  });
}

/** Runs `recipe serve ARGS` expecting it to fail at once; returns exit code and stderr. */
function serveFails(
  args: string[],
  env: NodeJS.ProcessEnv = {},
): Promise<{ code: number | null; stderr: string; stdout: string }> {
  const child = spawn(process.execPath, [recipeBin, 'serve', ...args], {
    cwd: tmp(),
    env: { ...process.env, CONNECTOR_CLIENT_ID: '', CONNECTOR_CLIENT_SECRET: '', ...env },
  });
  children.push(child);
  let stderr = '';
  let stdout = '';
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  return new Promise((resolve) => child.on('exit', (code) => resolve({ code, stderr, stdout })));
}

function tmp(): string {
  const d = mkdtempSync(join(tmpdir(), 'recipe-serve-'));
  dirs.push(d);
  return d;
}

async function takeToken(url: string, clientId: string, clientSecret: string): Promise<Response> {
  return fetch(`${url}/api/v1/account/applications/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ client_id: clientId, client_secret: clientSecret }),
  });
}

describe('recipe serve', () => {
  it('prints one listening line, answers a token over HTTP, and stops on SIGTERM', async () => {
    const s = await serve([
      '--db',
      ':memory:',
      '--port',
      '0',
      '--seed',
      'none',
      '--client-id',
      'cli-app',
      '--client-secret',
      'cli-secret',
    ]);
    expect(s.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const res = await takeToken(s.url, 'cli-app', 'cli-secret');
    expect(res.status).toBe(200);
    const { access_token } = (await res.json()) as { access_token: string };
    const ws = await fetch(`${s.url}/api/v1/workspaces`, { headers: { authorization: `Bearer ${access_token}` } });
    expect(((await ws.json()) as { data: { name: string }[] }).data.map((w) => w.name)).toEqual(['default']);
    s.child.kill('SIGTERM');
    expect(await s.exited).toBe(0);
    expect(s.stdout()).toBe(`listening on ${s.url}\n`);
    expect(s.stderr()).not.toContain('cli-secret');
  });

  it('creates a 0600 credentials file when none are given, prints its path, never the secret; SIGINT stops it', async () => {
    const cwd = tmp();
    const db = join(cwd, 'data', 'svc.db');
    const s = await serve(['--db', db, '--port', '0', '--seed', 'none'], { cwd });
    const file = join(cwd, 'data', 'credentials.json');
    const creds = JSON.parse(readFileSync(file, 'utf8')) as { client_id: string; client_secret: string };
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(s.stderr()).toContain(file);
    expect(s.stderr() + s.stdout()).not.toContain(creds.client_secret);
    expect((await takeToken(s.url, creds.client_id, creds.client_secret)).status).toBe(200);
    s.child.kill('SIGINT');
    expect(await s.exited).toBe(0);
    // A restart reuses the file and the database.
    const again = await serve(['--db', db, '--port', '0'], { cwd });
    expect((await takeToken(again.url, creds.client_id, creds.client_secret)).status).toBe(200);
    again.child.kill('SIGTERM');
    expect(await again.exited).toBe(0);
  });

  it('takes credentials from CONNECTOR_CLIENT_ID / CONNECTOR_CLIENT_SECRET', async () => {
    const s = await serve(['--db', ':memory:', '--port', '0', '--seed', 'none'], {
      env: { CONNECTOR_CLIENT_ID: 'env-app', CONNECTOR_CLIENT_SECRET: 'env-secret' },
    });
    expect((await takeToken(s.url, 'env-app', 'env-secret')).status).toBe(200);
    expect(s.stderr()).not.toContain('env-secret');
    s.child.kill('SIGTERM');
    expect(await s.exited).toBe(0);
  });

  it('exits 2 with a clear message for every bad flag', async () => {
    const cases: [string[], RegExp][] = [
      [['--port', '70000'], /--port must be between 0 and 65535, got 70000/],
      [['--port', 'http'], /--port must be a whole number, got "http"/],
      [['--seed-size', '0'], /--seed-size must be between 1 and 10000000/],
      [['--seed-size', '1.5'], /--seed-size must be a whole number/],
      [['--seed', 'lots'], /--seed must be demo or none, got "lots"/],
      [['--rate-limit', '-1'], /--rate-limit must be a whole number/],
      [['--client-id', 'only-id'], /give both --client-id and --client-secret, or neither/],
      [['--fixtures', 'does-not-exist.json'], /--fixtures: no such file does-not-exist\.json/],
    ];
    for (const [args, re] of cases) {
      const r = await serveFails(['--db', ':memory:', '--port', '0', ...args]);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr, args.join(' ')).toMatch(re);
      expect(r.stdout).toBe('');
    }
    const env = await serveFails(['--db', ':memory:', '--port', '0'], { CONNECTOR_CLIENT_ID: 'x' });
    expect(env.code).toBe(2);
    expect(env.stderr).toMatch(/give both CONNECTOR_CLIENT_ID and CONNECTOR_CLIENT_SECRET/);
  });

  it('exits 2 naming the file and path for a bad fixture file', async () => {
    const file = join(tmp(), 'bad.yaml');
    writeFileSync(file, 'connectors:\n  - type: nosuch\n    data: {}\n');
    const r = await serveFails(['--db', ':memory:', '--port', '0', '--seed', 'none', '--fixtures', file]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`${file} at /connectors/0/type: unknown connector type "nosuch"`);
  });

  it('exits 2 naming the credentials file when it is not usable, and never overwrites it', async () => {
    const dir = tmp();
    const file = join(dir, 'credentials.json');
    writeFileSync(file, '{"client_id": "only-an-id"}');
    const r = await serveFails(['--db', join(dir, 'local.db'), '--port', '0', '--seed', 'none']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`${file} must hold {"client_id": "...", "client_secret": "..."}`);
    expect(readFileSync(file, 'utf8')).toBe('{"client_id": "only-an-id"}');
  });

  it('exits 3 when the port is taken', async () => {
    const s = await serve(['--db', ':memory:', '--port', '0', '--seed', 'none']);
    const port = new URL(s.url).port;
    const r = await serveFails(['--db', ':memory:', '--port', port, '--seed', 'none']);
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(/cannot listen/);
    s.child.kill('SIGTERM');
    await s.exited;
  });

  it('has help with examples', async () => {
    const child = spawn(process.execPath, [recipeBin, 'serve', '--help']);
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    const code = await new Promise((resolve) => child.on('exit', resolve));
    expect(code).toBe(0);
    expect(out).toContain('--seed-size <n>');
    expect(out).toContain('Examples:');
    expect(out).toContain('CONNECTOR_CLIENT_ID');
  });
});
