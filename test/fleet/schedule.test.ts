import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JournalStore } from '../../src/journal/index.js';
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
import { startTestStore, STORE_KINDS, type TestStore } from './test-stores.js';

/**
 * Schedules (issue 15's "done when"): a schedule firing every second with two workers up yields exactly one
 * run per tick, over 10 ticks — one run id per tick, one note per run. On each store (issue 27).
 */
describe.each(STORE_KINDS)('schedules on %s', (kind) => {
  const QUEUE = 'scheduled';
  let dir: string;
  let recipes: string;
  let serviceDb: string;
  let store: TestStore;
  let journal: JournalStore;
  let serve: RecipeProcess | undefined;
  const workers: RecipeProcess[] = [];
  let env: NodeJS.ProcessEnv;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'recipe-schedule-'));
    recipes = join(dir, 'recipes');
    mkdirSync(recipes);
    serviceDb = join(dir, 'service.db');
    writeFileSync(
      join(recipes, 'tick.yaml'),
      `version: 1
name: tick
connector: { workspace: default, definition: CRM }
inputs:
  label: { type: string, required: true }
steps:
  - id: note
    execute:
      entity: notes
      action: create
      params:
        properties:
          hs_note_body: "\${ $inputs.label & ' ' & $run.id }"
          hs_timestamp: "\${ $run.started_at }"
outputs:
  body: "\${ $note.properties.hs_note_body }"
`,
    );
    store = await startTestStore(kind);
    journal = await store.openJournal(QUEUE, recipes);
    const started = await startServe(serviceDb, dir);
    serve = started.proc;
    env = fleetEnv({
      CONNECTOR_API_URL: started.url,
      CONNECTOR_CLIENT_ID: CLIENT.id,
      CONNECTOR_CLIENT_SECRET: CLIENT.secret,
      ...store.env,
    });
  }, 120_000);

  afterAll(async () => {
    await Promise.all(workers.map((w) => stopProcess(w)));
    await stopProcess(serve);
    await journal?.close();
    await store?.stop();
  }, 120_000);

  describe('recipe runs --redis/--postgres', () => {
    it("lists a queue's runs not yet taken as queued, with the local history's columns", async () => {
      const cli = (args: string[]) => runCli(args, { cwd: dir, env, timeoutMs: 60_000 });
      const sub = await cli([
        'submit',
        join(recipes, 'tick.yaml'),
        '-i',
        'label=idle',
        '--queue',
        'idle',
        '--recipes',
        recipes,
        '--json',
      ]);
      expect(sub.code, sub.stderr).toBe(0);
      const submitted = JSON.parse(sub.stdout) as { run_id: string; status: string; job_id: string };
      expect(submitted).toMatchObject({ status: 'queued', queue: 'idle', job_id: `run-${submitted.run_id}` });
      const text = await cli(['runs', ...store.flag, '--queue', 'idle']);
      expect(text.stdout.split('\n')[0]).toMatch(/^RUN ID\s+STATUS\s+RECIPE\s+STARTED\s+DURATION\s+REQUESTS\s+WRITES$/);
      expect(text.stdout).toContain(`${submitted.run_id}  queued`);
      const json = await cli(['runs', ...store.flag, '--queue', 'idle', '--status', 'queued', '--json']);
      expect((JSON.parse(json.stdout) as { run_id: string }[]).map((r) => r.run_id)).toEqual([submitted.run_id]);
      const bad = await cli(['runs', store.flag[0], 'http://127.0.0.1:1']);
      expect(bad.code).toBe(2);
      expect(bad.stderr).toContain('F006');
    }, 60_000);
  });

  describe('recipe schedule', () => {
    it('a schedule every second with two workers up: exactly one run per tick over 10 ticks', async () => {
      for (let i = 0; i < 2; i++)
        workers.push(spawnRecipe(['worker', '--queue', QUEUE, '--recipes', recipes, '--concurrency', '2'], env, dir));
      await untilReady(workers);
      const cli = (args: string[]) => runCli(args, { cwd: dir, env, timeoutMs: 60_000 });
      const add = await cli([
        'schedule',
        'add',
        'every-second',
        join(recipes, 'tick.yaml'),
        '--cron',
        '* * * * * *',
        '-i',
        'label=tick',
        '--queue',
        QUEUE,
        '--recipes',
        recipes,
      ]);
      expect(add.code, add.stderr).toBe(0);
      const listed = await cli(['schedule', 'list', '--json', '--queue', QUEUE]);
      expect(JSON.parse(listed.stdout)).toMatchObject([
        { name: 'every-second', recipe: 'tick.yaml', cron: '* * * * * *' },
      ]);

      // 12 ticks run: the first may be partial (the schedule was added mid-second), 10 are compared after it.
      await until(
        '12 scheduled runs',
        60_000,
        async () => {
          const runs = await journal.listRuns({ limit: 100 });
          return runs.filter((r) => r.status === 'succeeded').length >= 12 ? true : undefined;
        },
        200,
      );
      const removed = await cli(['schedule', 'remove', 'every-second', '--queue', QUEUE]);
      expect(removed.code, removed.stderr).toBe(0);
      expect((await cli(['schedule', 'list', '--queue', QUEUE])).stdout).toBe('no schedules\n');
      const missing = await cli(['schedule', 'remove', 'every-second', '--queue', QUEUE]);
      expect(missing.code).toBe(2);
      expect(missing.stderr).toContain('F005');

      // Every run that started has ended (a tick just before the removal may still be running).
      const runs = await until(
        'the last runs to end',
        30_000,
        async () => {
          const all = await journal.listRuns({ limit: 100 });
          return all.every((r) => r.status === 'succeeded') ? all : undefined;
        },
        200,
      );
      const ticks = runs.map((r) => Number(/^every-second-(\d+)$/.exec(r.run_id)?.[1])).sort((a, b) => a - b);
      expect(ticks.every((t) => Number.isInteger(t) && t % 1000 === 0)).toBe(true);
      // One run per tick: no tick twice, and ten consecutive seconds after the first tick, none missing.
      expect(new Set(ticks).size).toBe(ticks.length);
      const ten = ticks.slice(1, 11);
      expect(ten.map((t) => t - (ten[0] as number))).toEqual(Array.from({ length: 10 }, (_, i) => i * 1000));
      for (const r of runs) expect(r.attempts, r.run_id).toBe(1);
      // One note per run, with the run's id: no tick ran twice on the service either.
      const notes = notesLike(serviceDb, 'tick every-second-');
      expect(notes.size).toBe(runs.length);
      expect([...notes.values()].every((n) => n === 1)).toBe(true);
    }, 180_000);
  });
});
