import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Cond } from '../../../src/service/context-store/filter-ast.js';
import { searchSql } from '../../../src/service/context-store/search-sql.js';
import { readFieldIds } from '../../../src/service/context-store/field-ids.js';
import type { TestService } from '../helpers.js';
import { createPeopleService, waitForStatus } from './support/harness.js';
import { insertPeople } from './support/people-connector.js';

let svc: TestService;
let id: string;

beforeAll(async () => {
  svc = await createPeopleService();
  id = await svc.createConnector('people');
  await insertPeople(
    svc,
    id,
    Array.from({ length: 40 }, (_, i) => ({ properties: { email: `p${i}@example.com`, lastname: `L${i % 5}` } })),
  );
  await waitForStatus(svc, id, 'Ready');
});
afterAll(async () => svc.close());

/** SQLite's plan for a search page (what the benchmarks' speed rests on: index searches, no full scans). */
async function plan(
  filter: Cond,
  mode: 'in' | 'exists',
  sort: { field: string; dir: 'asc' | 'desc' }[] = [],
): Promise<string[]> {
  const fids = await readFieldIds(svc.store.db, id, 'people');
  const q = searchSql({ connectorId: id, entity: 'people', fids, mode }, filter, sort, null, 1001);
  const res = await sql<{ detail: string }>`EXPLAIN QUERY PLAN ${q}`.execute(svc.store.db);
  return res.rows.map((r) => r.detail);
}

describe('search query plans', () => {
  it('answers eq and in on a field by seeking the value index, never scanning documents', async () => {
    for (const filter of [
      { kind: 'compare', op: 'eq', field: 'properties.email', value: 'p7@example.com' },
      { kind: 'in', field: 'properties.lastname', values: ['L1', 'L2'] },
    ] as Cond[]) {
      const detail = await plan(filter, 'in');
      expect(detail.join('\n')).toMatch(
        /SEARCH v USING COVERING INDEX cs_values_sort \(fid=\? AND kind=\? AND num=\? AND text=\?\)/,
      );
      expect(detail.join('\n')).toMatch(/SEARCH d USING INDEX/);
      expect(detail.some((d) => /^SCAN (d|v|cs_docs|cs_values)\b/.test(d))).toBe(false);
    }
  });

  it("probes documents in order through the value table's primary key for broad filters", async () => {
    const detail = await plan({ kind: 'compare', op: 'eq', field: 'archived', value: false }, 'exists');
    expect(detail.join('\n')).toMatch(/SEARCH v (EXISTS )?USING PRIMARY KEY \(doc=\? AND fid=\?\)/);
    expect(detail.some((d) => /^SCAN (v|cs_values)\b/.test(d))).toBe(false);
  });

  it('reads one index range for two bounds on one field', async () => {
    const detail = await plan(
      {
        kind: 'range',
        field: 'createdAt',
        bounds: [
          { op: 'gte', value: '2026-01-01' },
          { op: 'lt', value: '2026-02-01' },
        ],
      },
      'in',
    );
    expect(detail.join('\n')).toMatch(/cs_values_sort \(fid=\? AND kind=\? AND num=\? AND text>\? AND text<\?\)/);
    expect(detail.join('\n')).toMatch(/SEARCH d USING INDEX \S+ \(connector_id=\? AND entity=\? AND id=\?\)/);
  });

  it('reads a range sorted by its own field from the value index in order, a page at a time', async () => {
    const range: Cond = {
      kind: 'range',
      field: 'createdAt',
      bounds: [
        { op: 'gte', value: '2026-01-01' },
        { op: 'lt', value: '2026-02-01' },
      ],
    };
    for (const dir of ['asc', 'desc'] as const) {
      const detail = (await plan(range, 'in', [{ field: 'createdAt', dir }])).join('\n');
      expect(detail).toMatch(
        /SEARCH s0 USING COVERING INDEX cs_values_sort \(fid=\? AND kind=\? AND num=\? AND text>\? AND text<\?\)/,
      );
      // Inside each branch the index gives the order (at most ties by id are sorted); only the merge of
      // the branches' pages sorts whole rows.
      const branches = detail
        .split(/CO-ROUTINE/)
        .slice(1)
        .map((b) => b.split(/SCAN \(subquery/)[0]);
      expect(branches.length).toBeGreaterThan(0);
      for (const b of branches) expect(b).not.toMatch(/USE TEMP B-TREE FOR ORDER BY/);
      expect(detail).not.toMatch(/SCAN s0|SCAN d\b/);
    }
  });

  it('uses the full-text index for fuzzy', async () => {
    const detail = await plan({ kind: 'fuzzy', field: 'properties.email', words: ['p7'] }, 'in');
    expect(detail.join('\n')).toMatch(/VIRTUAL TABLE INDEX/);
  });
});
