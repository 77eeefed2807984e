import { chmodSync, existsSync, mkdtempSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { openJournal } from '../../src/journal/index.js';
import { end, entry, outcome, start } from './store-contract.js';

/** The SQLite journal holds read answers: its file and its -wal/-shm sidecars are the owner's only (0600). */
const mode = (file: string): number => statSync(file).mode & 0o777;

describe('journal files', () => {
  it('are created 0600, sidecars included, whatever the umask lets through', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'recipe-journal-mode-')), 'runs.db');
    const old = process.umask(0o022);
    try {
      const store = openJournal(path);
      const run = await store.begin(start('m1'));
      await run.record(entry('a#0'), outcome('a#0'));
      await run.flush();
      for (const file of [path, `${path}-wal`, `${path}-shm`]) {
        expect(existsSync(file), file).toBe(true);
        expect(mode(file).toString(8), file).toBe('600');
      }
      await run.finish(end);
      await store.close();
    } finally {
      process.umask(old);
    }
  });

  it('narrows a journal an older version left 0644 when it is opened', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'recipe-journal-mode-')), 'runs.db');
    writeFileSync(path, '');
    chmodSync(path, 0o644);
    const store = openJournal(path);
    await (await store.begin(start('m2'))).finish(end);
    expect(mode(path).toString(8)).toBe('600');
    await store.close();
  });

  it('lays a new journal out in pages of 16 KiB, and leaves an existing one as it was made', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'recipe-journal-pages-'));
    const pageSize = (file: string): number => {
      const db = new Database(file, { readonly: true });
      try {
        return db.pragma('page_size', { simple: true }) as number;
      } finally {
        db.close();
      }
    };
    const fresh = join(dir, 'new.db');
    const store = openJournal(fresh);
    await (await store.begin(start('p1'))).finish(end);
    await store.close();
    expect(pageSize(fresh)).toBe(16_384);

    // A journal an earlier release made (SQLite's default 4 KiB pages) keeps its layout and stays usable.
    const older = join(dir, 'old.db');
    new Database(older).exec('CREATE TABLE made_before (x)').close();
    const reopened = openJournal(older);
    await (await reopened.begin(start('p2'))).finish(end);
    await reopened.close();
    expect(pageSize(older)).toBe(4096);
  });

  it('hands a long run over to its writer thread with every answer kept, in order', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'recipe-journal-thread-')), 'runs.db');
    const store = openJournal(path);
    const run = await store.begin(start('t1'));
    // 12 answers of 512 KiB: the first 4 MiB are written on this thread, the rest by the writer thread.
    const answers = Array.from({ length: 12 }, (_, i) => JSON.stringify({ i, pad: String(i % 10).repeat(512 * 1024) }));
    for (const [i, answer] of answers.entries()) {
      const key = `page[${i}]#0`;
      await run.record(entry(key), outcome(key, { answer }));
    }
    await run.finish(end);
    const kept = await store.listExchanges('t1');
    expect(kept.map((x) => x.call_key)).toEqual(answers.map((_, i) => `page[${i}]#0`));
    expect(kept.map((x) => x.answer)).toEqual(answers);
    expect((await store.getRun('t1'))?.status).toBe('succeeded');
    await store.close();
  });

  it('holds a run with a lock file that writes nothing beside it', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'recipe-journal-lock-')), 'runs.db');
    const store = openJournal(path);
    const run = await store.begin(start('l1'));
    // Held: the lock file alone (no rollback journal, which SQLite would make and sync at every hold).
    expect(readdirSync(`${path}-locks`)).toEqual(['l1']);
    expect((await store.listRuns()).find((r) => r.run_id === 'l1')?.status).toBe('running');
    await run.finish(end);
    expect(readdirSync(`${path}-locks`)).toEqual([]);
    await store.close();
  });
});
