import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPostgresFleetJournal } from '../../src/fleet/postgres-journal.js';
import { runCli } from '../cli/cli-process.js';
import { startPostgresServer, type PostgresServer } from '../helpers/postgres-server.js';
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
 * PostgreSQL itself SIGKILLed in the middle of a fleet run (issue 27): the postmaster and every backend die at
 * once, nothing is flushed. After crash recovery no journal entry the workers had committed is lost, the run
 * is resumed and finishes, and every one of its writes exists exactly once at the service.
 */
const NOTES = 200;
let dir: string;
let recipes: string;
let serviceDb: string;
let postgres: PostgresServer;
let serve: RecipeProcess | undefined;
let env: NodeJS.ProcessEnv;
const workers: RecipeProcess[] = [];

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'recipe-pg-crash-'));
  recipes = join(dir, 'recipes');
  mkdirSync(recipes);
  serviceDb = join(dir, 'service.db');
  writeFileSync(
    join(recipes, 'slow.yaml'),
    `version: 1
name: slow
inputs:
  tag: { type: string, required: true }
connector: { workspace: default, definition: CRM }
steps:
  - id: notes
    foreach: "\${ [1..${NOTES}] }"
    as: n
    concurrency: 2
    steps:
      - id: note
        execute:
          entity: notes
          action: create
          params:
            properties:
              hs_note_body: "\${ $inputs.tag & ' ' & $string($n) }"
              hs_timestamp: "\${ $run.started_at }"
    collect: "\${ $note.properties.hs_note_body }"
outputs:
  count: "\${ $count($notes) }"
`,
  );
  postgres = await startPostgresServer();
  const started = await startServe(serviceDb, dir);
  serve = started.proc;
  env = fleetEnv({
    CONNECTOR_API_URL: started.url,
    CONNECTOR_CLIENT_ID: CLIENT.id,
    CONNECTOR_CLIENT_SECRET: CLIENT.secret,
    RECIPE_POSTGRES_URL: postgres.url,
  });
}, 60_000);

afterAll(async () => {
  await Promise.all(workers.map((w) => stopProcess(w)));
  await stopProcess(serve);
  await postgres?.stop();
}, 60_000);

describe('the fleet on PostgreSQL when PostgreSQL is SIGKILLed mid-run', () => {
  it('loses no committed journal entry, sends no write twice, and the run is resumed to its end', async () => {
    for (let i = 0; i < 2; i++)
      workers.push(spawnRecipe(['worker', '--recipes', recipes, '--lock-ms', '3000'], env, dir));
    await untilReady(workers);
    const sub = await runCli(
      ['submit', join(recipes, 'slow.yaml'), '--recipes', recipes, '-i', 'tag=crash', '--run-id', 'crash-1'],
      { cwd: dir, env, timeoutMs: 60_000 },
    );
    expect(sub.code, sub.stderr).toBe(0);

    // What the workers had committed when PostgreSQL died: read from PostgreSQL itself just before the kill.
    let journal = await openPostgresFleetJournal(postgres.url, { queue: 'recipe-runs', recipesDir: recipes });
    const committed = await until(
      'the run to be 30 writes in',
      90_000,
      async () => {
        const answered = (await journal.listExchanges('crash-1', { writes_only: true })).filter(
          (e) => e.state === 'answered',
        );
        return answered.length >= 30 ? answered : undefined;
      },
      5,
    );
    await journal.close().catch(() => undefined);
    await postgres.kill9();
    await new Promise((r) => setTimeout(r, 1000));
    await postgres.restart();

    journal = await openPostgresFleetJournal(postgres.url, { queue: 'recipe-runs', recipesDir: recipes });
    try {
      const record = await until(
        'the run to succeed after the crash',
        150_000,
        async () => {
          const r = await journal.getRun('crash-1').catch(() => undefined);
          return r?.status === 'succeeded' ? r : undefined;
        },
        250,
      );
      expect(JSON.parse(record.report ?? '{}')).toMatchObject({ status: 'ok', outputs: { count: NOTES } });

      // Every entry committed before the crash is still there, answered as it was.
      const after = new Map(
        (await journal.listExchanges('crash-1', { writes_only: true })).map((e) => [e.call_key, e] as const),
      );
      for (const e of committed) {
        expect(after.get(e.call_key)?.state, e.call_key).toBe('answered');
        expect(after.get(e.call_key)?.status, e.call_key).toBe(e.status);
      }
      // The run went on after the crash: resumed (a second attempt) or carried on by its worker.
      expect((await journal.listAttempts('crash-1')).at(-1)?.status).toBe('succeeded');
    } finally {
      await journal.close();
    }

    // No write sent twice: each note exists exactly once at the service.
    const notes = notesLike(serviceDb, 'crash ');
    expect(notes.size).toBe(NOTES);
    expect([...notes.values()].every((n) => n === 1)).toBe(true);
  }, 300_000);
});
