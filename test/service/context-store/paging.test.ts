import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestService } from '../helpers.js';
import { createPeopleService, searchIds, waitFor, waitForStatus } from './support/harness.js';
import { insertPeople } from './support/people-connector.js';

let svc: TestService;
let id: string;
const CITIES = ['Oslo', 'Bergen', 'Tromsø', 'Bodø', null];

beforeAll(async () => {
  svc = await createPeopleService({ batchSize: 40 });
  id = await svc.createConnector('people');
  await insertPeople(
    svc,
    id,
    Array.from({ length: 137 }, (_, i) => ({
      properties: { firstname: `N${i}`, city: CITIES[i % CITIES.length] as string | null, amount: String(i % 7) },
    })),
  );
  await waitForStatus(svc, id, 'Ready');
});
afterAll(async () => svc.close());

async function pageAll(
  query: Record<string, unknown>,
  limit: number,
  between?: (page: number) => Promise<void>,
): Promise<string[]> {
  const seen: string[] = [];
  let cursor: string | null = null;
  let pages = 0;
  do {
    const { body } = await searchIds(svc, id, { query, limit, ...(cursor && { cursor }) });
    seen.push(...body.result.data.map((d: any) => d.id));
    expect(body.connector_metadata).toEqual({
      has_next_page: body.result.meta.has_more,
      end_cursor: body.result.meta.cursor,
    });
    cursor = body.result.meta.cursor;
    pages += 1;
    if (between && cursor) await between(pages);
  } while (cursor);
  return seen;
}

describe('cursor paging', () => {
  it('pages to the end with no record skipped or repeated, for several sorts', async () => {
    for (const sort of [
      undefined,
      [{ 'properties.city': 'asc' }],
      [{ 'properties.city': 'desc' }, { 'properties.amount': 'asc' }],
      [{ createdAt: 'desc' }],
    ]) {
      const ids = await pageAll({ ...(sort && { sort }) }, 10);
      expect(ids).toHaveLength(137);
      expect(new Set(ids).size).toBe(137);
      // Paging gives the same order as one big page.
      const all = (await searchIds(svc, id, { query: { ...(sort && { sort }) } })).ids;
      expect(ids).toEqual(all);
    }
  });

  it('never skips or repeats a record while other records are created and updated between pages', async () => {
    const before = (await searchIds(svc, id, { query: {} })).ids;
    const created: string[] = [];
    const seen = await pageAll(
      { sort: [{ 'properties.city': 'asc' }, { 'properties.amount': 'desc' }] },
      9,
      async (page) => {
        const res = await svc.execute(id, {
          entity: 'people',
          action: 'create',
          params: { properties: { firstname: `new${page}`, city: 'Oslo', amount: '3' } },
        });
        created.push(res.json().result.id);
        // Change a field the query does not sort on, for a record already read and one not read yet.
        await svc.execute(id, {
          entity: 'people',
          action: 'update',
          params: { id: before[page]!, properties: { firstname: `changed${page}` } },
        });
        await svc.execute(id, {
          entity: 'people',
          action: 'update',
          params: { id: before[before.length - page]!, properties: { firstname: `changed-late${page}` } },
        });
        await waitFor(
          'writes indexed',
          async () =>
            (await searchIds(svc, id, { query: { filter: { eq: { id: created[created.length - 1]! } } } })).ids
              .length === 1,
          5000,
        );
      },
    );
    expect(new Set(seen).size).toBe(seen.length); // nothing repeated
    for (const r of before) expect(seen).toContain(r); // nothing that existed is skipped
    for (const r of seen) expect([...before, ...created]).toContain(r);
  });

  it('pages a filtered query with limit 1', async () => {
    const expected = (await searchIds(svc, id, { query: { filter: { eq: { 'properties.city': 'Bodø' } } } })).ids;
    const ids = await pageAll({ filter: { eq: { 'properties.city': 'Bodø' } } }, 1);
    expect(ids).toEqual(expected);
    expect(ids.length).toBeGreaterThan(20);
  });
});
