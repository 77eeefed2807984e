import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Bench, notesRecipe } from '../helpers/serve-process.js';

/**
 * A run rides through an outage of its connector service: `recipe serve` killed mid-run and started again 5 s
 * later on the same port with the same database. With no flag the run's default (retry max_duration 10m)
 * waits it out, says so on stderr, and writes every note exactly once (counted at the service); with
 * `--retry-for 0` it fails as before (attempts only) and a resume finishes it, every note once.
 */
const NOTES = 300;
let bench: Bench;
let recipeFile: string;

beforeAll(async () => {
  const dir = mkdtempSync(join(tmpdir(), 'recipe-outage-'));
  bench = new Bench(dir, join(dir, 'service.db'), join(dir, 'runs.db'));
  recipeFile = join(dir, 'notes.yaml');
  writeFileSync(recipeFile, notesRecipe(NOTES));
  await bench.startService();
}, 60_000);

afterAll(async () => {
  await bench.stopService();
});

function expectEveryNoteOnce(tag: string): void {
  const notes = bench.notesOf(tag);
  expect(notes.size).toBe(NOTES);
  expect([...notes.values()].filter((n) => n !== 1)).toEqual([]);
}

/** Starts a run, stops the service once it has journaled `at` writes, and starts it again `outageMs` later. */
async function runThroughOutage(runId: string, tag: string, at: number, outageMs: number, extra: string[] = []) {
  const run = bench.recipe(['run', recipeFile, '-i', `tag=${tag}`, '--run-id', runId, '--json', '-q', ...extra]);
  let ended = false;
  void run.done.then(() => (ended = true));
  await bench.untilWrites(runId, at, () => ended);
  expect(ended, 'the run ended before the outage').toBe(false);
  await bench.stopService();
  await new Promise((r) => setTimeout(r, outageMs));
  const stoppedBeforeRestart = ended;
  await bench.startService();
  return { result: await run.done, stoppedBeforeRestart };
}

describe('a service outage', () => {
  it('is waited out with no flag: the run finishes, every note exactly once, a waiting line on stderr', async () => {
    const { result, stoppedBeforeRestart } = await runThroughOutage('outage-1', 'o1', 60, 5_000);
    expect(stoppedBeforeRestart).toBe(false);
    expect(result.code, result.stderr).toBe(0);
    const report = JSON.parse(result.stdout) as { status: string; outputs: { count: number }; stats: unknown };
    expect(report.status).toBe('ok');
    expect(report.outputs.count).toBe(NOTES);
    expect(result.stderr).toMatch(
      /^warning: note: waiting for the service \((connect ECONNREFUSED|reset)[^)]*\): retrying for up to 10m \(max_duration\), \d+\w* so far$/m,
    );
    expectEveryNoteOnce('o1');
  }, 120_000);

  it('with --retry-for 0 fails as before (attempts only); a resume then finishes, every note exactly once', async () => {
    const { result } = await runThroughOutage('outage-2', 'o2', 60, 5_000, ['--retry-for', '0']);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/C006 notes\.create: cannot reach/);
    expect(result.stderr).not.toMatch(/waiting for the service/);
    const resumed = await bench.recipe(['resume', 'outage-2', '--json', '-q']).done;
    expect(resumed.code, resumed.stderr).toBe(0);
    expectEveryNoteOnce('o2');
  }, 120_000);

  it('refuses a --retry-for that is not a duration, and RECIPE_RETRY_FOR likewise (C014)', async () => {
    const flag = await bench.recipe(['run', recipeFile, '-i', 'tag=x', '--retry-for', '10 minutes']).done;
    expect(flag.code).not.toBe(0);
    expect(flag.stderr).toMatch(/--retry-for.*expected a duration: a number and a unit, e\.g\. 30s, 10m/);
    const env = await bench.recipe(['run', recipeFile, '-i', 'tag=x'], { RECIPE_RETRY_FOR: 'forever' }).done;
    expect(env.code).toBe(2);
    expect(env.stderr).toMatch(/C014 RECIPE_RETRY_FOR "forever" is not a duration/);
    expect(bench.notesOf('x').size).toBe(0);
  }, 60_000);
});
