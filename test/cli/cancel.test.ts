import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Bench, notesRecipe } from '../helpers/serve-process.js';

/**
 * `recipe cancel` on a local run, all as child processes: a run writing 300 notes against `recipe serve` is
 * cancelled mid-way; it stops (exit 130, X021 with the reason, the journal says cancelled), nothing reaches the
 * service after it stopped, and `recipe resume` finishes the rest: every note exactly once, counted at the
 * service.
 */
const NOTES = 300;
let bench: Bench;
let recipeFile: string;

beforeAll(async () => {
  const dir = mkdtempSync(join(tmpdir(), 'recipe-cancel-'));
  bench = new Bench(dir, join(dir, 'service.db'), join(dir, 'runs.db'));
  recipeFile = join(dir, 'notes.yaml');
  writeFileSync(recipeFile, notesRecipe(NOTES));
  await bench.startService();
}, 60_000);

afterAll(async () => {
  await bench.stopService();
});

function journalStatus(runId: string): string {
  const db = new Database(bench.journal, { readonly: true, timeout: 5000 });
  try {
    return (db.prepare('SELECT status FROM runs WHERE run_id = ?').get(runId) as { status: string }).status;
  } finally {
    db.close();
  }
}

function total(tag: string): number {
  return [...bench.notesOf(tag).values()].reduce((a, b) => a + b, 0);
}

describe('recipe cancel', () => {
  it('stops a running local run; nothing is sent after; a resume finishes every note exactly once', async () => {
    const runId = 'cancel-1';
    const run = bench.recipe(['run', recipeFile, '-i', 'tag=k1', '--run-id', runId, '--json', '-q']);
    let ended = false;
    void run.done.then(() => (ended = true));
    await bench.untilWrites(runId, 40, () => ended);
    expect(ended, 'the run ended before the cancel').toBe(false);
    const asked = Date.now();
    const cancel = await bench.recipe(['cancel', runId, '--reason', 'wrong input file', '--json']).done;
    expect(cancel.code, cancel.stderr).toBe(0);
    const stored = Date.now();
    expect(JSON.parse(cancel.stdout)).toMatchObject({ run_id: runId, attempt: 1, reason: 'wrong input file' });
    const stopped = await run.done;
    // Measured, not asserted (no timing assertions): how long from the request stored to the process gone.
    console.log(
      `cancel: \`recipe cancel\` took ${stored - asked} ms; the run stopped ${Date.now() - stored} ms after it returned`,
    );
    expect(stopped.code).toBe(130);
    const report = JSON.parse(stopped.stdout) as { status: string; error: { code: string; message: string } };
    expect(report.status).toBe('interrupted');
    expect(report.error).toMatchObject({
      code: 'X021',
      message: 'run cancelled by `recipe cancel`: wrong input file',
    });
    expect(journalStatus(runId)).toBe('cancelled');
    const atStop = total('k1');
    expect(atStop).toBeLessThan(NOTES);
    // Nothing still on its way: the service holds the same notes a while later (a second `runs` call's worth).
    const runs = await bench.recipe(['runs', '--json']).done;
    expect(runs.code).toBe(0);
    expect(
      (JSON.parse(runs.stdout) as { run_id: string; status: string }[]).find((r) => r.run_id === runId)?.status,
    ).toBe('cancelled');
    expect(total('k1')).toBe(atStop);

    const resumed = await bench.recipe(['resume', runId, '--json', '-q']).done;
    expect(resumed.code, resumed.stderr).toBe(0);
    const notes = bench.notesOf('k1');
    expect(notes.size).toBe(NOTES);
    expect([...notes.values()].filter((n) => n !== 1)).toEqual([]);
    expect(journalStatus(runId)).toBe('succeeded');
  }, 120_000);

  it('refuses a run that is not running (J020, exit 2) and an unknown one (J001)', async () => {
    const done = await bench.recipe(['run', recipeFile, '-i', 'tag=k2', '--run-id', 'cancel-2', '-q']).done;
    expect(done.code, done.stderr).toBe(0);
    const late = await bench.recipe(['cancel', 'cancel-2']).done;
    expect(late.code).toBe(2);
    expect(late.stderr).toMatch(/^J020 run cancel-2 is succeeded: only a running run can be cancelled/m);
    const unknown = await bench.recipe(['cancel', 'no-such-run']).done;
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/^J001 no run "no-such-run"/m);
  }, 120_000);
});
