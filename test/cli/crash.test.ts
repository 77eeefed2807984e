import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { notesAt } from '../helpers/serve-process.js';

/**
 * The crash test of the run journal: a recipe that creates 300 notes (foreach, concurrency 4) against
 * `recipe serve` on a file database, `recipe run` killed with SIGKILL at 20 different moments, each followed
 * by `recipe resume`: every time exactly 300 notes, none twice, outputs equal to an uninterrupted run's.
 * Then the same with the service killed (SIGKILL) and restarted mid-run. The moments are counted in
 * journaled writes (read from the journal file while the run goes), not in sleeps.
 */
const bin = new URL('../../bin/recipe.js', import.meta.url).pathname;
const NOTES = 300;
const CLIENT = { id: 'crash-app', secret: 'crash-secret-0123456789' };

let dir: string;
let serviceDb: string;
let journal: string;
let recipeFile: string;
let service: ChildProcess;
let url: string;
let port: number;

interface Result {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

function spawnRecipe(args: string[]): { child: ChildProcess; done: Promise<Result> } {
  const clean: Record<string, string | undefined> = { ...process.env, NO_COLOR: '1' };
  for (const k of Object.keys(clean)) if (k.startsWith('CONNECTOR_') || k === 'RECIPE_JOURNAL') delete clean[k];
  const child = spawn(process.execPath, [bin, ...args], {
    env: {
      ...clean,
      CONNECTOR_API_URL: url,
      CONNECTOR_CLIENT_ID: CLIENT.id,
      CONNECTOR_CLIENT_SECRET: CLIENT.secret,
      RECIPE_JOURNAL: journal,
    },
    cwd: dir,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
  const done = new Promise<Result>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
  return { child, done };
}

/** Starts `recipe serve` on the service database (port 0 the first time, then the same port again). */
async function startServe(onPort: number): Promise<void> {
  const { child, done } = spawnRecipe([
    'serve',
    '--db',
    serviceDb,
    '--port',
    String(onPort),
    '--seed-size',
    '20',
    '--client-id',
    CLIENT.id,
    '--client-secret',
    CLIENT.secret,
  ]);
  service = child;
  const listening = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout?.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /listening on (http:\/\/\S+)/.exec(out);
      if (m?.[1]) resolve(m[1]);
    });
    void done.then((r) => reject(new Error(`recipe serve exited ${r.code}: ${r.stderr}`)));
  });
  url = listening;
  port = Number(new URL(listening).port);
}

async function killServe(): Promise<void> {
  const exited = new Promise((resolve) => service.once('close', resolve));
  service.kill('SIGKILL');
  await exited;
}

/** Journaled writes (intents, answered or not) of a run so far. */
function writesJournaled(reader: Database.Database, runId: string): number {
  try {
    return (
      reader.prepare('SELECT count(*) AS n FROM exchanges WHERE run_id = ? AND write = 1').get(runId) as { n: number }
    ).n;
  } catch {
    return 0; // the journal is not created yet
  }
}

/** Waits until the run has journaled `target` writes (or ended), polling the journal file. */
async function untilWrites(runId: string, target: number, ended: () => boolean): Promise<number> {
  const reader = new Database(journal, { readonly: true, fileMustExist: false, timeout: 1000 });
  try {
    for (;;) {
      const n = writesJournaled(reader, runId);
      if (n >= target || ended()) return n;
      await new Promise((r) => setTimeout(r, 3));
    }
  } finally {
    reader.close();
  }
}

function expectExactlyOnce(tag: string): void {
  const notes = notesAt(serviceDb, `${tag} `);
  expect(notes.size).toBe(NOTES);
  expect([...notes.values()].every((n) => n === 1)).toBe(true);
}

/** The outputs with the tag taken out, to compare runs with different tags. */
function outputsOf(stdout: string, tag: string): string {
  const report = JSON.parse(stdout) as { status: string; outputs: unknown };
  expect(report.status).toBe('ok');
  return JSON.stringify(report.outputs).replaceAll(`${tag} `, '');
}

function waitMoment(i: number, of: number): number {
  // 1 .. 290 writes journaled: from "the first write just intended" to "nearly done".
  return 1 + Math.round((i * 289) / (of - 1));
}

let reference: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'recipe-crash-'));
  serviceDb = join(dir, 'service.db');
  journal = join(dir, 'runs.db');
  recipeFile = join(dir, 'notes.yaml');
  writeFileSync(
    recipeFile,
    `version: 1
name: crash-notes
inputs:
  tag: { type: string, required: true }
connector: { workspace: default, definition: CRM }
steps:
  - id: notes
    foreach: "\${ [1..${NOTES}] }"
    as: n
    concurrency: 4
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
  bodies: "\${ $notes }"
  count: "\${ $count($notes) }"
`,
  );
  await startServe(0);
  const ref = await spawnRecipe(['run', recipeFile, '-i', 'tag=ref', '--json', '-q']).done;
  expect(ref.code).toBe(0);
  reference = outputsOf(ref.stdout, 'ref');
  expectExactlyOnce('ref');
}, 60_000);

afterAll(async () => {
  if (service && service.exitCode === null) await killServe();
});

describe('crash test', () => {
  it('recipe run killed (SIGKILL) at 20 moments, then resumed: exactly 300 notes each time, same outputs', async () => {
    const moments: number[] = [];
    for (let i = 0; i < 20; i++) {
      const runId = `crash-${i}`;
      const tag = `c${i}`;
      const run = spawnRecipe(['run', recipeFile, '-i', `tag=${tag}`, '--run-id', runId, '--json', '-q']);
      let ended = false;
      void run.done.then(() => (ended = true));
      moments.push(await untilWrites(runId, waitMoment(i, 20), () => ended));
      run.child.kill('SIGKILL');
      const killed = await run.done;
      const resumed = await spawnRecipe(['resume', runId, '--json', '-q']).done;
      expect(resumed.code, `moment ${i}: ${resumed.stderr}`).toBe(0);
      expect(outputsOf(resumed.stdout, tag)).toBe(reference);
      expectExactlyOnce(tag);
      if (killed.signal !== 'SIGKILL') expect(killed.code).toBe(0); // finished before the kill landed
    }
    // The moments differ: the kills landed all along the run.
    expect(new Set(moments).size).toBeGreaterThanOrEqual(18);
    // Some kills landed between a write's send and its answer: those writes were settled, not re-sent blindly.
    const reader = new Database(journal, { readonly: true });
    const settled = reader
      .prepare(`SELECT count(*) AS n FROM exchanges WHERE run_id LIKE 'crash-%' AND settled_by = 'idempotency_key'`)
      .get() as { n: number };
    reader.close();
    expect(settled.n).toBeGreaterThan(0);
  }, 240_000);

  it('the service killed (SIGKILL) and restarted mid-run: exactly 300 notes, same outputs', async () => {
    for (const [i, target] of [40, 150, 260].entries()) {
      const runId = `svc-${i}`;
      const tag = `s${i}`;
      const run = spawnRecipe(['run', recipeFile, '-i', `tag=${tag}`, '--run-id', runId, '--json', '-q']);
      let ended = false;
      void run.done.then(() => (ended = true));
      await untilWrites(runId, target, () => ended);
      await killServe();
      await startServe(port);
      const first = await run.done;
      // The run rides out the restart (keyed writes are retried) or fails; a resume finishes it.
      let stdout = first.stdout;
      if (first.code !== 0) {
        const resumed = await spawnRecipe(['resume', runId, '--json', '-q']).done;
        expect(resumed.code, `service kill ${i}: ${first.stderr} / ${resumed.stderr}`).toBe(0);
        stdout = resumed.stdout;
      }
      expect(outputsOf(stdout, tag)).toBe(reference);
      expectExactlyOnce(tag);
    }
  }, 120_000);
});
