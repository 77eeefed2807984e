import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';
import { openJournal, type JournalStore } from '../../src/journal/index.js';
import { listRunsPagingContract } from './list-runs-paging-contract.js';

const dir = mkdtempSync(join(tmpdir(), 'recipe-journal-paging-'));
const stores: JournalStore[] = [];
afterAll(async () => {
  for (const s of stores) await s.close();
  rmSync(dir, { recursive: true, force: true });
});

listRunsPagingContract(() => {
  const store = openJournal(join(dir, `${stores.length}.db`));
  stores.push(store);
  return store;
});
