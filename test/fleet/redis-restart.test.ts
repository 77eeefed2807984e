import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../cli/cli-process.js';
import {
  CLIENT,
  fleetEnv,
  notesLike,
  spawnRecipe,
  startServe,
  stopProcess,
  until,
  untilReady,
  type RecipeProcess,
} from './fleet-process.js';

/**
 * Redis as a production store (issue 26 point 8): redis-server with `--appendonly yes --appendfsync always`
 * is SIGKILLed in the middle of a fleet run of writes and restarted on the same port and directory. The
 * worker and the journal reconnect; the run ends with every note created exactly once (no write lost,
 * none sent twice).
 */
const NOTES = 60;
const REDIS_SERVER = existsSync('/usr/bin/redis-server') ? '/usr/bin/redis-server' : 'redis-server';

let dir: string;
let redisDir: string;
let port: number;
let redis: ChildProcess | undefined;
let serve: RecipeProcess | undefined;
let serviceUrl: string;
let worker: RecipeProcess | undefined;

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const p = (s.address() as { port: number }).port;
      s.close(() => resolve(p));
    });
  });
}

/** redis-server on the test's port and directory, with AOF fsynced on every write; resolves once it answers. */
async function startRedis(): Promise<ChildProcess> {
  const child = spawn(
    REDIS_SERVER,
    [
      '--port',
      String(port),
      '--bind',
      '127.0.0.1',
      '--dir',
      redisDir,
      '--save',
      '',
      '--appendonly',
      'yes',
      '--appendfsync',
      'always',
      '--maxmemory-policy',
      'noeviction',
    ],
    { cwd: redisDir, stdio: 'ignore' },
  );
  await until(
    'redis-server to answer',
    20_000,
    async () => {
      const r = await runCli(['fleet', 'status', '--redis', url(), '--json'], { cwd: dir, env: fleetEnv({}) });
      return r.code === 0 ? true : undefined;
    },
    100,
  );
  return child;
}

function url(): string {
  return `redis://127.0.0.1:${port}`;
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'recipe-redis-restart-'));
  redisDir = join(dir, 'redis');
  mkdirSync(redisDir);
  mkdirSync(join(dir, 'recipes'));
  writeFileSync(
    join(dir, 'recipes', 'notes.yaml'),
    `version: 1
name: notes
connector: { workspace: default, definition: CRM }
steps:
  - id: notes
    foreach: "\${ [1..${NOTES}] }"
    as: n
    steps:
      - id: note
        execute:
          entity: notes
          action: create
          params:
            properties:
              hs_note_body: "\${ 'aof ' & $string($n) }"
              hs_timestamp: "\${ $run.started_at }"
    collect: "\${ $note.id }"
outputs:
  count: "\${ $count($notes) }"
`,
  );
  port = await freePort();
  redis = await startRedis();
  const started = await startServe(join(dir, 'service.db'), dir);
  serve = started.proc;
  serviceUrl = started.url;
}, 60_000);

afterAll(async () => {
  await stopProcess(worker);
  await stopProcess(serve);
  redis?.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
}, 60_000);

describe('a SIGKILLed redis-server restarted with its AOF', () => {
  it('loses no write and duplicates none', async () => {
    const env = fleetEnv({
      CONNECTOR_API_URL: serviceUrl,
      CONNECTOR_CLIENT_ID: CLIENT.id,
      CONNECTOR_CLIENT_SECRET: CLIENT.secret,
      RECIPE_REDIS_URL: url(),
    });
    worker = spawnRecipe(['worker', '--recipes', join(dir, 'recipes')], env, dir);
    await untilReady([worker]);
    const submitted = await runCli(
      ['submit', join(dir, 'recipes', 'notes.yaml'), '--recipes', join(dir, 'recipes'), '--run-id', 'aof-1'],
      { cwd: dir, env },
    );
    expect(submitted.code, submitted.stderr).toBe(0);
    await until(
      'a few notes written',
      60_000,
      async () => (notesLike(join(dir, 'service.db'), 'aof ').size >= 10 ? true : undefined),
      20,
    );
    const exited = new Promise((r) => redis!.once('exit', r));
    redis!.kill('SIGKILL');
    await exited;
    redis = await startRedis();
    const done = await runCli(
      [
        'submit',
        join(dir, 'recipes', 'notes.yaml'),
        '--recipes',
        join(dir, 'recipes'),
        '--run-id',
        'aof-1',
        '--wait',
        '--json',
      ],
      { cwd: dir, env, timeoutMs: 120_000 },
    );
    expect(done.code, `${done.stderr}\n${worker.output()}`).toBe(0);
    expect(JSON.parse(done.stdout)).toMatchObject({ status: 'ok', outputs: { count: NOTES } });
    const notes = notesLike(join(dir, 'service.db'), 'aof ');
    expect(notes.size).toBe(NOTES);
    expect([...notes.values()].every((n) => n === 1)).toBe(true);
  }, 180_000);
});
