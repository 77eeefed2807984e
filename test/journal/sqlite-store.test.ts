import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openJournal, openJournalReader, type JournalStore } from '../../src/journal/index.js';
import { RecipeError } from '../../src/errors/index.js';
import { end, entry, journalStoreContract, start } from './store-contract.js';

const stores: JournalStore[] = [];
afterEach(async () => {
  for (const s of stores.splice(0)) await s.close();
});

function open(path: string): JournalStore {
  const s = openJournal(path);
  stores.push(s);
  return s;
}

function tempJournal(): string {
  return join(mkdtempSync(join(tmpdir(), 'recipe-journal-')), 'runs.db');
}

// The journal's contract (store-contract.ts, which every backend runs) on SQLite files, and what only the
// SQLite store has: OS locks that go with the process, parts held with their run, read-only files.
describe('SQLite journal store', () => {
  journalStoreContract({
    fresh: () => {
      const path = tempJournal();
      return { open: () => open(path) };
    },
  });

  it('shows a run whose process died as interrupted, and lets another process resume it', async () => {
    const path = tempJournal();
    // A child process (dist/, as built by `npm run build`) begins a run and is killed while holding it.
    const child = spawn(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        `const { openJournal } = await import(${JSON.stringify(new URL('../../dist/journal/index.js', import.meta.url).pathname)});
         const s = openJournal(${JSON.stringify(path)});
         await s.begin(${JSON.stringify(start('held'))});
         process.stdout.write('held\\n');
         setInterval(() => {}, 1000);`,
      ],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    await new Promise<void>((resolve) => child.stdout.on('data', () => resolve()));
    const store = open(path);
    expect((await store.getRun('held'))?.status).toBe('running');
    await expect(store.resume('held', { kind: 'resume', started_at: 2, options: {} })).rejects.toMatchObject({
      code: 'J003',
    });
    child.kill('SIGKILL');
    await new Promise((resolve) => child.on('exit', resolve));
    expect((await store.getRun('held'))?.status).toBe('interrupted');
    expect((await store.listRuns({ status: 'interrupted' })).map((r) => r.run_id)).toEqual(['held']);
    const again = await store.resume('held', { kind: 'resume', started_at: 3, options: { allow_changed: false } });
    expect(again.attempt).toBe(2);
    expect(again.resuming).toBe(true);
    expect((await store.getRun('held'))?.status).toBe('running');
    await again.finish(end);
    const attempts = await store.listAttempts('held');
    expect(attempts.map((a) => [a.attempt, a.kind, a.status])).toEqual([
      [1, 'run', 'interrupted'],
      [2, 'resume', 'succeeded'],
    ]);
    expect(existsSync(`${path}-locks/held`)).toBe(false);
  });

  it("holds a run's parts only in the process that holds the run (J011); they keep it held after its journal lets go", async () => {
    const path = tempJournal();
    const store = open(path);
    const run = await store.begin(start('p'));
    // Another process (another store on the file) cannot number the run's appends: J011.
    await expect(open(path).holdPart('p', 'chunk-0')).rejects.toMatchObject({ code: 'J011' });
    const part = await store.holdPart('p', 'chunk-0');
    await run.release();
    expect((await store.getRun('p'))?.status).toBe('running');
    await expect(open(path).resume('p', { kind: 'resume', started_at: 2, options: {} })).rejects.toMatchObject({
      code: 'J003',
    });
    // This process resumes it beside its part, on the same order of events.
    const again = await store.resume('p', { kind: 'resume', started_at: 2, options: {} });
    await part.intend(entry('items[0].w#0', true));
    await again.intend(entry('a#0', true));
    await part.release();
    await again.release();
    expect((await store.getRun('p'))?.status).toBe('interrupted');
    expect((await store.listExchanges('p')).map((e) => [e.call_key, e.seq])).toEqual([
      ['items[0].w#0', 1],
      ['a#0', 2],
    ]);
    await expect(store.holdPart('p', 'chunk-0')).rejects.toMatchObject({ code: 'J011' });
  });

  it('says why it cannot open a journal (J007)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'recipe-journal-'));
    writeFileSync(join(dir, 'a-file'), 'x');
    let err: unknown;
    try {
      openJournal(join(dir, 'a-file', 'runs.db'));
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(RecipeError);
    expect((err as RecipeError).code).toBe('J007');
  });

  it('opens read-only for a console: reads, follows a held run, refuses to write (J007)', async () => {
    const path = tempJournal();
    const store = open(path);
    const run = await store.begin(start('live'));
    run.step({
      step_path: 'notes',
      file: '/r/notes.yaml',
      line: 4,
      column: 5,
      pointer: '/steps/1',
      step_id: 'notes',
      kind: 'foreach',
      depth: 0,
      status: 'running',
      started_at: 1,
      duration_ms: null,
      error_code: null,
    });
    await run.flush();
    const reader = openJournalReader(path);
    try {
      expect((await reader.getRun('live'))?.status).toBe('running');
      const seen = await reader.listSteps('live');
      expect(seen.map((e) => e.status)).toEqual(['running']);
      await run.intend(entry('n#0', true));
      expect(await reader.listExchanges('live', { after_seq: seen[0]?.seq ?? 0 })).toHaveLength(1);
      await expect((reader as JournalStore).begin(start('nope'))).rejects.toMatchObject({ code: 'J007' });
    } finally {
      await reader.close();
    }
    await run.release();
    expect(() => openJournalReader(`${path}.missing`)).toThrow(RecipeError);
  });
});
