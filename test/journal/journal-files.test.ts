import { chmodSync, existsSync, mkdtempSync, statSync, writeFileSync } from 'node:fs';
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
});
