import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { runCli } from './cli-process.js';

/** Retention: `--retain 30d` (or RECIPE_RETAIN) prunes runs that ended longer ago than that when a run starts. */
describe('journal retention', () => {
  const dir = mkdtempSync(join(tmpdir(), 'recipe-retain-'));
  const file = join(dir, 'double.yaml');
  writeFileSync(
    file,
    `version: 1
name: double
steps:
  - id: doubled
    transform: "\${ 2 * 2 }"
`,
  );
  const cli = (args: string[], env: Record<string, string> = {}) =>
    runCli(args, { cwd: dir, env: { RECIPE_JOURNAL: join(dir, 'runs.db'), ...env } });
  const ids = async (): Promise<string[]> => {
    const r = await cli(['runs', '--json']);
    expect(r.code, r.stderr).toBe(0);
    return (JSON.parse(r.stdout) as { run_id: string }[]).map((x) => x.run_id).sort();
  };

  it('prunes old runs at the start of a run with --retain or RECIPE_RETAIN; keeps all without', async () => {
    // Two runs on a clock pinned in 2020: they ended more than 30 days ago.
    for (const id of ['old-1', 'old-2'])
      expect((await cli(['run', file, '--db', ':memory:', '--run-id', id, '--now', '2020-01-01T00:00:00Z'])).code).toBe(
        0,
      );
    expect((await cli(['run', file, '--db', ':memory:', '--run-id', 'new-1'])).code).toBe(0);
    expect(await ids()).toEqual(['new-1', 'old-1', 'old-2']);
    expect((await cli(['run', file, '--db', ':memory:', '--run-id', 'new-2', '--retain', '30d'])).code).toBe(0);
    expect(await ids()).toEqual(['new-1', 'new-2']);
    expect(
      (await cli(['run', file, '--db', ':memory:', '--run-id', 'old-3', '--now', '2020-01-01T00:00:00Z'])).code,
    ).toBe(0);
    expect((await cli(['run', file, '--db', ':memory:', '--run-id', 'new-3'], { RECIPE_RETAIN: '30d' })).code).toBe(0);
    expect(await ids()).toEqual(['new-1', 'new-2', 'new-3']);
    const bad = await cli(['run', file, '--db', ':memory:'], { RECIPE_RETAIN: 'a month' });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('C014 RECIPE_RETAIN "a month" is not a duration');
  }, 300_000);

  it('--drop-read-answers: a run that succeeded keeps no read answers in the journal', async () => {
    const reads = join(dir, 'reads.yaml');
    writeFileSync(
      reads,
      `version: 1
name: reads
connector: { workspace: default, definition: CRM }
steps:
  - id: contacts
    execute: { entity: contacts, action: list, params: { limit: 2 } }
`,
    );
    const db = join(dir, 'local.db');
    expect((await cli(['run', reads, '--db', db, '--run-id', 'kept'])).code).toBe(0);
    const dropped = await cli(['run', reads, '--db', db, '--run-id', 'dropped', '--drop-read-answers']);
    expect(dropped.code, dropped.stderr).toBe(0);
    const journal = new Database(join(dir, 'runs.db'), { readonly: true });
    const answers = (runId: string) =>
      journal
        .prepare(
          `SELECT count(*) AS n, count(answer) AS kept FROM exchanges WHERE run_id = ? AND write = 0 AND kind = 'execute'`,
        )
        .get(runId) as { n: number; kept: number };
    expect(answers('kept')).toEqual({ n: 1, kept: 1 });
    expect(answers('dropped')).toEqual({ n: 1, kept: 0 });
    journal.close();
  }, 300_000);
});
