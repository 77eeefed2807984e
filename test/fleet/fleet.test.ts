import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jobIdOf } from '../../src/fleet/job.js';
import { openFleet, runJobData, submitRun } from '../../src/fleet/queue.js';
import { checkRecipe } from '../../src/run/index.js';
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
import { startOtlpReceiver, type OtlpReceiver } from '../telemetry/otlp-receiver.js';

/**
 * The fleet end to end (issue 15's "done when"), on each store (issue 27): one real redis-server or PostgreSQL,
 * one `recipe serve`, three `recipe worker` processes, runs submitted with `recipe submit`. A worker is
 * SIGKILLed in the middle of a run of 300 writes: the queue hands the job to another worker, which resumes the
 * run from the fleet's journal; every note exists exactly once. Then 29 more runs: 30 runs, each finished once.
 */
describe.each(STORE_KINDS)('the fleet on %s', (kind) => {
  // Every `recipe` process on PostgreSQL opens pools and checks three schemas at start: slower than on Redis on
  // a loaded machine, so the waits (never the assertions) are longer there.
  const patience = kind === 'postgres' ? 2 : 1;
  const SLOW_NOTES = 300;
  const PACED_NOTES = 30;
  const SECRET = 'fleet-secret-value-7c1e';

  let dir: string;
  let recipes: string;
  let serviceDb: string;
  let store: TestStore;
  let journal: JournalStore;
  let serve: RecipeProcess | undefined;
  let serviceUrl: string;
  // The workers' metrics (docs/tracing.md#metrics): a lease taken over after the SIGKILL, the queue's depth.
  let receiver: OtlpReceiver;
  const workers: RecipeProcess[] = [];

  function env(): NodeJS.ProcessEnv {
    return fleetEnv({
      CONNECTOR_API_URL: serviceUrl,
      CONNECTOR_CLIENT_ID: CLIENT.id,
      CONNECTOR_CLIENT_SECRET: CLIENT.secret,
      ...store.env,
    });
  }

  function startWorker(): RecipeProcess {
    // A short lock: a dead worker's job moves on in seconds, not the default minute. A short grace: SIGTERM
    // hands a run back at once (the SIGTERM case), and the workers stop fast at the end.
    const w = spawnRecipe(
      [
        'worker',
        '--recipes',
        recipes,
        '--concurrency',
        '2',
        '--lock-ms',
        '3000',
        '--grace-ms',
        '200',
        '--retain',
        '30d',
      ],
      {
        ...env(),
        NOTE_SECRET: SECRET,
        GATE: 'closed',
        OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint,
        OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
        OTEL_METRIC_EXPORT_INTERVAL: '500',
      },
      dir,
    );
    workers.push(w);
    return w;
  }

  /** A worker up and taking jobs: one of the cases before's, still running, else a new one (starting costs seconds). */
  async function liveWorker(): Promise<RecipeProcess> {
    const alive = workers.find((w) => w.child.exitCode === null && w.child.signalCode === null);
    const w = alive ?? startWorker();
    await untilReady([w], 30_000 * patience);
    return w;
  }

  function submit(file: string, args: string[], cwdEnv: NodeJS.ProcessEnv = env()) {
    return runCli(['submit', join(recipes, file), '--recipes', recipes, ...args], {
      cwd: dir,
      env: cwdEnv,
      timeoutMs: 120_000,
    });
  }

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'recipe-fleet-'));
    recipes = join(dir, 'recipes');
    mkdirSync(recipes);
    serviceDb = join(dir, 'service.db');
    writeFileSync(
      join(recipes, 'quick.yaml'),
      `version: 1
name: quick
inputs:
  tag: { type: string, required: true }
secrets: [NOTE_SECRET]
connector: { workspace: default, definition: CRM }
steps:
  - id: note
    execute:
      entity: notes
      action: create
      params:
        properties:
          hs_note_body: "\${ $inputs.tag }"
          hs_timestamp: "\${ $run.started_at }"
outputs:
  body: "\${ $note.properties.hs_note_body }"
  secret_length: "\${ $length($secrets.NOTE_SECRET) }"
`,
    );
    writeFileSync(
      join(recipes, 'slow.yaml'),
      `version: 1
name: slow
inputs:
  tag: { type: string, required: true }
connector: { workspace: default, definition: CRM }
steps:
  - id: notes
    foreach: "\${ [1..${SLOW_NOTES}] }"
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
    writeFileSync(
      join(recipes, 'gated.yaml'),
      `version: 1
name: gated
inputs:
  tag: { type: string, required: true }
secrets: [GATE]
connector: { workspace: default, definition: CRM }
steps:
  - id: note
    execute:
      entity: notes
      action: create
      params:
        properties:
          hs_note_body: "\${ $inputs.tag }"
          hs_timestamp: "\${ $run.started_at }"
  - assert: "\${ $secrets.GATE = 'open' }"
outputs:
  body: "\${ $note.properties.hs_note_body }"
`,
    );
    store = await startTestStore(kind);
    receiver = await startOtlpReceiver();
    journal = await store.openJournal('recipe-runs', recipes);
    // A run that ended in 2020: the workers' --retain 30d prunes it from the fleet's journal when they start.
    const ancient = Date.parse('2020-01-01T00:00:00Z');
    const old = await journal.begin({
      run_id: 'ancient-1',
      recipe: 'quick',
      file: join(recipes, 'quick.yaml'),
      files: [],
      inputs: {},
      started_at: ancient,
      dry_run: false,
      options: {},
    });
    await old.finish({
      status: 'ok',
      ended_at: ancient + 1000,
      duration_ms: 1000,
      outputs: {},
      error: null,
      report: '{"status":"ok"}',
      failed_call: null,
      requests: 0,
      writes: 0,
      replayed_calls: 0,
    });
    const started = await startServe(serviceDb, dir);
    serve = started.proc;
    serviceUrl = started.url;
  }, 60_000 * patience);

  afterAll(async () => {
    await Promise.all(workers.map((w) => stopProcess(w)));
    await stopProcess(serve);
    await journal?.close();
    await store?.stop();
    await receiver?.close();
  }, 60_000 * patience);

  describe('a fleet of three workers on one store', () => {
    it(
      'finishes 30 runs exactly once; a SIGKILLed worker’s run is resumed by another, no write sent twice',
      async () => {
        const fleet = [startWorker(), startWorker(), startWorker()];
        await untilReady(fleet, 30_000 * patience);
        // --retain 30d: the run that ended in 2020 is pruned by the workers' first round.
        await until('the 2020 run to be pruned', 30_000, async () =>
          (await journal.getRun('ancient-1')) === undefined ? true : undefined,
        );
        await until('a worker to log its pruning', 10_000, async () =>
          fleet.some((w) => w.output().includes('retention: pruned 1 run ')) ? true : undefined,
        );

        // The long run, followed by `submit --wait` while a worker dies under it.
        const waiting = submit('slow.yaml', ['-i', 'tag=slow', '--run-id', 'slow-1', '--wait', '--json']);
        const holder = await until(
          'the slow run to be 20 writes in',
          60_000,
          async () => {
            const writes = await journal.listExchanges('slow-1', { writes_only: true });
            const record = await journal.getRun('slow-1');
            return writes.length >= 20 && record?.holder ? Number(record.holder.pid) : undefined;
          },
          5,
        );
        const victim = fleet.find((w) => w.child.pid === holder);
        expect(victim).toBeDefined();
        victim!.child.kill('SIGKILL');
        expect((await victim!.exited).signal).toBe('SIGKILL');

        // 29 more runs while another worker takes over the slow one. Four go through `recipe submit` (its
        // output is the run id); the other 25 are enqueued as submit enqueues them, from this process: 25 more
        // child processes would cost a minute of CI on two cores and test nothing the four do not.
        const QUICK = 29;
        const BY_CLI = 4;
        const quick = await Promise.all(
          Array.from({ length: BY_CLI }, (_, i) =>
            submit('quick.yaml', ['-i', `tag=quick-${i}`, '--run-id', `quick-${i}`]),
          ),
        );
        for (const r of quick) expect(r.code, r.stderr).toBe(0);
        expect(quick.map((r) => r.stdout.trim()).sort()).toEqual(
          Array.from({ length: BY_CLI }, (_, i) => `quick-${i}`).sort(),
        );
        const plan = (await checkRecipe(join(recipes, 'quick.yaml'))).recipe!.plan;
        const client = await openFleet(store.store, 'recipe-runs');
        try {
          for (let i = BY_CLI; i < QUICK; i++) {
            const data = await runJobData(plan, recipes, { inputs: { tag: `quick-${i}` }, runId: `quick-${i}` });
            expect(await submitRun(client, { ...data, run_id: `quick-${i}` })).toBe(true);
          }
        } finally {
          await client.close();
        }

        const slow = await waiting;
        expect(slow.code, `${slow.stderr}\n${fleet.map((w) => w.output()).join('\n---\n')}`).toBe(0);
        expect(JSON.parse(slow.stdout)).toMatchObject({
          status: 'ok',
          run_id: 'slow-1',
          outputs: { count: SLOW_NOTES },
        });

        // Every run succeeded, once; the quick ones in one attempt, the slow one resumed by another worker.
        const listed = await until(
          '30 runs to succeed',
          90_000 * patience,
          async () => {
            const r = await runCli(['runs', ...store.flag, '--json', '--limit', '100'], {
              cwd: dir,
              env: env(),
            });
            const runs = JSON.parse(r.stdout) as { run_id: string; status: string; attempts: number }[];
            return runs.length === 30 && runs.every((x) => x.status === 'succeeded') ? runs : undefined;
          },
          500,
        );
        for (const run of listed) expect(run.attempts, run.run_id).toBe(run.run_id === 'slow-1' ? 2 : 1);
        const attempts = await journal.listAttempts('slow-1');
        expect(attempts.map((a) => [a.kind, a.status])).toEqual([
          ['run', 'interrupted'],
          ['resume', 'succeeded'],
        ]);
        expect(fleet.filter((w) => w !== victim).some((w) => w.output().includes('run slow-1 resumed'))).toBe(true);
        // The worker that took the run over counted it (recipe.lease.takeovers, cumulative: its last point).
        const takeovers = await until('a lease takeover in the metrics', 30_000, async () => {
          const points = receiver.metrics().filter((p) => p.metric === 'recipe.lease.takeovers');
          return points.length > 0 ? points : undefined;
        });
        expect(new Set(takeovers.map((p) => p.value))).toEqual(new Set([1]));
        expect(new Set(takeovers.map((p) => p.resource['recipe.worker.id'])).size).toBe(1);
        expect(String(takeovers[0]?.resource['recipe.worker.id'])).not.toMatch(new RegExp(`:${victim!.child.pid}$`));

        // No write sent twice: each note exists exactly once in the service.
        const slowNotes = notesLike(serviceDb, 'slow ');
        expect(slowNotes.size).toBe(SLOW_NOTES);
        expect([...slowNotes.values()].every((n) => n === 1)).toBe(true);
        const quickNotes = notesLike(serviceDb, 'quick-');
        expect(quickNotes.size).toBe(29);
        expect([...quickNotes.values()].every((n) => n === 1)).toBe(true);

        // The secret came from the workers' environment; the store never saw its value.
        const quick0 = await journal.getRun('quick-0');
        expect(quick0?.outputs).toEqual({ body: 'quick-0', secret_length: SECRET.length });
        expect(await store.holds(SECRET)).toBe(false);

        // Submitting a run id again runs nothing: the same run.
        const again = await submit('quick.yaml', ['-i', 'tag=quick-0', '--run-id', 'quick-0', '--wait', '--json']);
        expect(again.code, again.stderr).toBe(0);
        expect(again.stderr).toContain('already submitted');
        expect(notesLike(serviceDb, 'quick-0').get('quick-0')).toBe(1);
      },
      240_000 * patience,
    );

    it(
      'fails a job whose recipe differs on the worker (F003); --wait exits 2 with the reason',
      async () => {
        await liveWorker();
        const other = join(dir, 'other-recipes');
        mkdirSync(other, { recursive: true });
        // The same recipe with one more line: it hashes differently.
        writeFileSync(join(other, 'quick.yaml'), `${readFileSync(join(recipes, 'quick.yaml'), 'utf8')}# changed\n`);
        const r = await runCli(
          ['submit', join(other, 'quick.yaml'), '--recipes', other, '-i', 'tag=x', '--run-id', 'changed-1', '--wait'],
          { cwd: dir, env: env(), timeoutMs: 120_000 },
        );
        expect(r.code, r.stderr).toBe(2);
        expect(r.stderr).toContain('F003');
        expect(await journal.getRun('changed-1')).toBeUndefined();
        // The failed job is in the queue's depth the workers report (recipe.queue.depth, read at each export).
        const failed = await until('the failed job in recipe.queue.depth', 30_000, async () =>
          receiver
            .metrics()
            .find(
              (p) =>
                p.metric === 'recipe.queue.depth' && p.attributes['recipe.queue.state'] === 'failed' && p.value >= 1,
            ),
        );
        expect(failed.attributes['messaging.destination.name']).toBe('recipe-runs');
      },
      120_000 * patience,
    );

    it(
      'on SIGTERM a worker stops taking jobs, hands back its run and exits 0; another resumes it',
      async () => {
        const a = await liveWorker();
        // Only `a` can take it: the others are stopped first.
        await Promise.all(workers.filter((w) => w !== a).map((w) => stopProcess(w)));
        const waiting = submit('slow.yaml', ['-i', 'tag=term', '--run-id', 'term-1', '--wait', '--json']);
        await until(
          'the run to be 10 writes in',
          60_000,
          async () => {
            const writes = await journal.listExchanges('term-1', { writes_only: true });
            return writes.length >= 10 ? true : undefined;
          },
          5,
        );
        a.child.kill('SIGTERM');
        expect((await a.exited).code).toBe(0);
        expect(a.output()).toContain('run term-1 handed back');
        const b = startWorker();
        const done = await waiting;
        expect(done.code, `${done.stderr}\n${b.output()}`).toBe(0);
        expect(JSON.parse(done.stdout)).toMatchObject({ status: 'ok', outputs: { count: SLOW_NOTES } });
        expect((await journal.listAttempts('term-1')).map((x) => [x.kind, x.status])).toEqual([
          ['run', 'cancelled'],
          ['resume', 'succeeded'],
        ]);
        const notes = notesLike(serviceDb, 'term ');
        expect(notes.size).toBe(SLOW_NOTES);
        expect([...notes.values()].every((n) => n === 1)).toBe(true);
      },
      180_000 * patience,
    );

    it(
      'fails a job whose data is malformed or whose name is unknown (F004), without running anything',
      async () => {
        await liveWorker();
        const fleet = await openFleet(store.store, 'recipe-runs');
        const queue = fleet.queue;
        try {
          const outside = await queue.add(
            'run',
            { recipe: '../outside.yaml', sha256: 'a'.repeat(64), files: [], inputs: {}, secrets: [], submitted_at: 1 },
            { jobId: 'run-outside-1' },
          );
          const garbled = await queue.add('run', { recipe: 42 }, { jobId: 'run-garbled-1' });
          const unknown = await queue.add('bogus', {}, { jobId: 'bogus-1' });
          for (const job of [outside, garbled, unknown]) {
            const reason = await until(`job ${job.id} to fail`, 60_000, async () => {
              const now = await queue.getJob(job.id as string);
              return (await now?.getState()) === 'failed' ? now?.failedReason : undefined;
            });
            expect(reason).toMatch(job === unknown ? /unknown job name "bogus"/ : /^F004 job \S+ cannot be run: /);
          }
          expect(await journal.getRun('outside-1')).toBeUndefined();
        } finally {
          await fleet.close();
        }
      },
      90_000 * patience,
    );

    it(
      'a failed fleet run is resumed here with recipe resume --redis/--postgres: its write replays, not sent again',
      async () => {
        await liveWorker();
        // The workers' GATE is closed: the run writes its note, then its assert fails.
        const failed = await submit('gated.yaml', ['-i', 'tag=gated-1', '--run-id', 'gated-1', '--wait', '--json']);
        expect(failed.code).toBe(1);
        expect(JSON.parse(failed.stdout)).toMatchObject({ status: 'failed', run_id: 'gated-1' });
        const resumed = await runCli(
          ['resume', 'gated-1', ...store.flag, '--here', '--recipes', recipes, '--json', '-q'],
          {
            cwd: dir,
            env: { ...env(), GATE: 'open' },
            timeoutMs: 60_000,
          },
        );
        expect(resumed.code, resumed.stderr).toBe(0);
        // Both calls replay from the fleet's journal: the connector lookup and the note's create.
        expect(JSON.parse(resumed.stdout)).toMatchObject({ status: 'ok', run_id: 'gated-1', replayed_calls: 2 });
        expect(notesLike(serviceDb, 'gated-1').get('gated-1')).toBe(1);
        expect((await journal.listAttempts('gated-1')).map((a) => [a.kind, a.status])).toEqual([
          ['run', 'failed'],
          ['redrive', 'succeeded'],
        ]);
      },
      90_000 * patience,
    );

    // On Redis only, to keep CI short: the cancel's code is the store's journal and queue, and `recipe cancel
    // --postgres` of a held run is covered in fleet-ops.test.ts.
    it.runIf(kind === 'redis')(
      'recipe cancel stops a fleet run: nothing is sent after it returns; a redrive on the workers sends the rest once',
      async () => {
        await liveWorker();
        // Each item writes its note, then reads a pacing URL here; from the 10th read on the reads are held, so
        // the run is surely still going when the cancel is stored (two items at once: both wait on a read).
        const pacing = { holding: true, arrived: 0, held: [] as ServerResponse[] };
        const target = createServer((req, res) => {
          req.resume();
          pacing.arrived++;
          if (pacing.holding && pacing.arrived >= 10) pacing.held.push(res);
          else res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
        });
        await new Promise<void>((r) => target.listen(0, '127.0.0.1', r));
        const host = `127.0.0.1:${(target.address() as AddressInfo).port}`;
        try {
          writeFileSync(
            join(recipes, 'paced.yaml'),
            `version: 1
name: paced
inputs:
  tag: { type: string, required: true }
http: { allow: ["${host}"] }
connector: { workspace: default, definition: CRM }
steps:
  - id: notes
    foreach: "\${ [1..${PACED_NOTES}] }"
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
      - http: { method: GET, url: "http://${host}/pace?n=\${ $n }" }
`,
          );
          const submitted = await submit('paced.yaml', ['-i', 'tag=paced', '--run-id', 'paced-1']);
          expect(submitted.code, submitted.stderr).toBe(0);
          await until('the run to wait on a held read', 60_000, async () =>
            pacing.held.length > 0 ? true : undefined,
          );
          const asked = Date.now();
          const cancel = await runCli(['cancel', 'paced-1', ...store.flag, '--reason', 'stop the test run', '--json'], {
            cwd: dir,
            env: env(),
          });
          expect(cancel.code, cancel.stderr).toBe(0);
          const returned = Date.now();
          const notesAtCancel = notesLike(serviceDb, 'paced ').size;
          const readsAtCancel = pacing.arrived;
          // The bound, observed: 2 s after `recipe cancel` returned, nothing more reached the service or the
          // target. Meanwhile, measured (not asserted: no timing assertions), when the run was seen cancelled.
          let seenCancelled: number | undefined;
          const watch = setInterval(() => {
            void journal.getRun('paced-1').then((r) => {
              if (r?.status === 'cancelled') seenCancelled ??= Date.now();
            });
          }, 50);
          await new Promise((r) => setTimeout(r, 2000));
          clearInterval(watch);
          expect(notesLike(serviceDb, 'paced ').size).toBe(notesAtCancel);
          expect(pacing.arrived).toBe(readsAtCancel);
          await until('the run to end cancelled', 30_000, async () =>
            (await journal.getRun('paced-1'))?.status === 'cancelled' ? true : undefined,
          );
          // The worker aborted the reads it had in flight.
          await until('the held reads to be aborted', 10_000, async () =>
            pacing.held.every((res) => res.destroyed) ? true : undefined,
          );
          console.log(
            `fleet cancel: \`recipe cancel\` took ${returned - asked} ms; the run was seen cancelled ${seenCancelled === undefined ? 'after more than 2000' : seenCancelled - returned} ms after it returned`,
          );
          expect(notesAtCancel).toBeLessThan(PACED_NOTES);
          expect(notesLike(serviceDb, 'paced ').size).toBe(notesAtCancel);

          // The redrive, on the workers: the rest of the notes, every note once.
          pacing.holding = false;
          const fleet = await openFleet(store.store, 'recipe-runs');
          try {
            await until('the job to end', 30_000, async () => {
              const state = await (await fleet.queue.getJob(jobIdOf('paced-1')))?.getState();
              return state === 'completed' || state === 'failed' ? true : undefined;
            });
          } finally {
            await fleet.close();
          }
          const redriven = await runCli(['resume', 'paced-1', ...store.flag, '--json'], {
            cwd: dir,
            env: env(),
            timeoutMs: 120_000,
          });
          expect(redriven.code, redriven.stderr).toBe(0);
          expect(JSON.parse(redriven.stdout)).toMatchObject({ status: 'ok', run_id: 'paced-1' });
          const notes = notesLike(serviceDb, 'paced ');
          expect(notes.size).toBe(PACED_NOTES);
          expect([...notes.values()].filter((n) => n !== 1)).toEqual([]);
          expect((await journal.listAttempts('paced-1')).map((a) => a.status)).toEqual(['cancelled', 'succeeded']);
        } finally {
          target.closeAllConnections();
          await new Promise<void>((r) => target.close(() => r()));
        }
      },
      90_000,
    );
  });
});
