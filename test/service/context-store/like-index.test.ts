import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Cond } from '../../../src/service/context-store/filter-ast.js';
import { likeWindow } from '../../../src/service/context-store/like-plan.js';
import { searchSql } from '../../../src/service/context-store/search-sql.js';
import { readFieldIds } from '../../../src/service/context-store/field-ids.js';
import type { TestService } from '../helpers.js';
import { createPeopleService, searchIds, waitFor, waitForStatus } from './support/harness.js';
import { insertPeople } from './support/people-connector.js';

// `like` finds its candidates in the trigram index (sqlite-like.ts) and keeps exactly the matches of its
// rule: case-insensitive for ASCII, % a wildcard, _ and \ literal.

let svc: TestService;
let id: string;
const emails = [
  'Ana_Li@Example.org',
  'anabli@example.org',
  'ZOË@exämple.net',
  'zoe@example.net',
  'x%y@odd.example',
  'back\\slash@odd.example',
  'smile😀😀x@emoji.example',
];

beforeAll(async () => {
  svc = await createPeopleService();
  id = await svc.createConnector('people');
  await insertPeople(
    svc,
    id,
    emails.map((email, i) => ({ properties: { email, lastname: `Person${i}` } })),
  );
  await waitForStatus(svc, id, 'Ready');
});
afterAll(async () => svc.close());

const find = async (value: string) =>
  (await searchIds(svc, id, { query: { filter: { like: { 'properties.email': value } } } })).ids.map(Number);

describe('like through the trigram index', () => {
  it('matches the rule: case-insensitive ASCII, % wildcard, _ and \\ literal', async () => {
    expect(await find('ana_li')).toEqual([1]);
    expect(await find('example.org')).toEqual([1, 2]);
    expect(await find('EXAMPLE.NET')).toEqual([4]);
    expect(await find('exämple')).toEqual([3]);
    expect(await find('zoë@')).toEqual([]); // Ë and ë differ: only ASCII letters fold
    expect(await find('x%y@odd')).toEqual([5]);
    expect(await find('k\\sla')).toEqual([6]);
    expect(await find('ana%org')).toEqual([1, 2]);
    // Two characters but three UTF-16 units: too short for the trigram index, so the values are read.
    expect(await find('😀x')).toEqual([7]);
    expect(await find('😀😀x@')).toEqual([7]);
    // The index holds all text values of a document in one row: "on0" is in record 1's lastname (Person0),
    // not in its email, and the exact test drops it.
    expect(await find('son0')).toEqual([]);
  });

  it('follows updates and archiving of the records', async () => {
    const created = await svc.execute(id, {
      entity: 'people',
      action: 'create',
      params: { properties: { email: 'fresh.trigram@example.io', lastname: 'New' } },
    });
    expect(created.statusCode, created.body).toBe(200);
    const newId = Number(created.json().result.id);
    await waitFor('the new record', async () => (await find('trigram')).includes(newId));
    const updated = await svc.execute(id, {
      entity: 'people',
      action: 'update',
      params: { id: String(newId), properties: { email: 'renamed@example.io' } },
    });
    expect(updated.statusCode, updated.body).toBe(200);
    await waitFor('the update', async () => (await find('renamed')).includes(newId));
    expect(await find('trigram')).toEqual([]);
  });

  it('looks up the window of rare trigrams, or none when every window is common', () => {
    const sample = Array.from({ length: 100 }, (_, i) => `name${i}@co${i % 40}.example`);
    expect(likeWindow('%@co12.example', sample)).toBe('o12.');
    expect(likeWindow('example', sample)).toBeNull();
    expect(likeWindow('ab', sample)).toBeNull();
    // Characters as the trigram tokenizer counts them: two emoji and a letter are one trigram, not four units.
    expect(likeWindow('😀😀a', sample)).toBe('😀😀a');
    expect(likeWindow('😀a', sample)).toBeNull();
  });

  it('reads candidates from the trigram index', async () => {
    const like: Cond = { kind: 'like', field: 'properties.email', value: 'example' };
    const q = searchSql(
      {
        connectorId: id,
        entity: 'people',
        fids: await readFieldIds(svc.store.db, id, 'people'),
        mode: 'in',
        likeFields: ['id', 'properties.email'],
        likePlans: new Map([[like, 'xampl']]),
      },
      like,
      [],
      null,
      26,
    );
    const plan = (await sql<{ detail: string }>`EXPLAIN QUERY PLAN ${q}`.execute(svc.store.db)).rows
      .map((r) => r.detail)
      .join('\n');
    expect(plan).toMatch(/SCAN cs_like VIRTUAL TABLE INDEX/);
  });

  it('loses the rows of a deleted connector with its documents', async () => {
    const count = async () =>
      Number((await sql<{ n: number }>`SELECT count(*) AS n FROM cs_like`.execute(svc.store.db)).rows[0]?.n);
    expect(await count()).toBeGreaterThan(0);
    const del = await svc.app.inject({
      method: 'DELETE',
      url: `/api/v1/integrations/connectors/${id}`,
      headers: await svc.auth(),
    });
    expect(del.statusCode).toBe(202);
    expect(await count()).toBe(0);
  });
});
