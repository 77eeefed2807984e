import { describe, expect, it } from 'vitest';
import type { JournalStore, RunSummary } from '../../src/journal/index.js';

/**
 * RunFilter.before: keyset paging through listRuns, as a console pages the runs list. Written against the
 * JournalStore interface only; part of the store contract (store-contract.ts), which every backend runs.
 * `fresh` gives an empty store (at once or as a Promise) the caller closes.
 */
async function seeded(fresh: () => JournalStore | Promise<JournalStore>): Promise<JournalStore> {
  const store = await fresh();
  // Seven runs; three share a millisecond, so the run_id breaks the tie.
  const runs: [string, number, string, 'ok' | 'failed'][] = [
    ['a1', 1000, 'alpha', 'ok'],
    ['b1', 2000, 'beta', 'failed'],
    ['a2', 3000, 'alpha', 'failed'],
    ['t1', 4000, 'alpha', 'ok'],
    ['t2', 4000, 'beta', 'ok'],
    ['t3', 4000, 'alpha', 'failed'],
    ['b2', 5000, 'beta', 'ok'],
  ];
  for (const [id, at, recipe, status] of runs) {
    const run = await store.begin({
      run_id: id,
      recipe,
      file: `/r/${recipe}.yaml`,
      files: [],
      inputs: {},
      started_at: at,
      dry_run: false,
      options: {},
    });
    await run.finish({
      status,
      ended_at: at + 10,
      duration_ms: 10,
      outputs: {},
      error: null,
      report: '{}',
      failed_call: null,
      requests: 0,
      writes: 0,
      replayed_calls: 0,
    });
  }
  return store;
}

/** Every page of a listing, following `before` from the last row of each page. */
async function allPages(store: JournalStore, filter: { status?: 'failed'; recipe?: string }): Promise<string[][]> {
  const pages: string[][] = [];
  let last: RunSummary | undefined;
  for (;;) {
    const page = await store.listRuns({ ...filter, limit: 2, ...(last ? { before: last } : {}) });
    if (page.length === 0) return pages;
    pages.push(page.map((r) => r.run_id));
    last = page[page.length - 1];
  }
}

export function listRunsPagingContract(fresh: () => JournalStore | Promise<JournalStore>): void {
  describe('listRuns with before (paging)', () => {
    it('pages newest first; runs started in the same millisecond are ordered by run_id', async () => {
      const store = await seeded(fresh);
      expect(await allPages(store, {})).toEqual([['b2', 't3'], ['t2', 't1'], ['a2', 'b1'], ['a1']]);
    });

    it('pages within a status or a recipe', async () => {
      const store = await seeded(fresh);
      expect(await allPages(store, { status: 'failed' })).toEqual([['t3', 'a2'], ['b1']]);
      expect(await allPages(store, { recipe: 'alpha' })).toEqual([
        ['t3', 't1'],
        ['a2', 'a1'],
      ]);
    });

    it('matches nothing for a cursor whose time cannot be read', async () => {
      const store = await seeded(fresh);
      expect(await store.listRuns({ before: { started_at: 'not a time', run_id: 'x' } })).toEqual([]);
    });
  });
}
