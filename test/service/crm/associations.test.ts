import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { crmHarness, errorText, type CrmHarness } from './crm-helpers.js';

let h: CrmHarness;
let contact: string;
let company: string;
let deal: string;
beforeEach(async () => {
  h = await crmHarness();
  contact = (await h.ok('contacts', 'create', { properties: { email: 'a@x.example' } })).result.id;
  company = (await h.ok('companies', 'create', { properties: { name: 'X' } })).result.id;
  deal = (await h.ok('deals', 'create', { properties: { dealname: 'D' } })).result.id;
});
afterEach(async () => {
  await h.close();
});

const assoc = (typeId: number, from: [string, string], to: [string, string], category = 'PLATFORM_DEFINED') => ({
  associationCategory: category,
  associationTypeId: typeId,
  fromObjectType: from[0],
  fromObjectId: from[1],
  toObjectType: to[0],
  toObjectId: to[1],
});

describe('associations create', () => {
  it('creates a default association, visible from both sides with the inverse type id', async () => {
    const out = await h.ok('associations', 'create', assoc(279, ['contacts', contact], ['companies', company]));
    expect(out.result).toMatchObject({
      status: 'COMPLETE',
      results: [
        {
          fromObjectTypeId: '0-1',
          fromObjectId: Number(contact),
          toObjectTypeId: '0-2',
          toObjectId: Number(company),
          labels: [],
        },
      ],
    });
    expect(out.result.startedAt).toBe('2026-03-01T12:00:00.000Z');
    expect(out.result.completedAt).toBe('2026-03-01T12:00:00.000Z');
    expect(out.result.requestedAt).toBe('2026-03-01T12:00:00.000Z');
    const fwd = await h.ok('associations', 'list', {
      fromObjectType: 'contacts',
      fromObjectId: contact,
      toObjectType: 'companies',
    });
    expect(fwd.result.results).toEqual([
      { toObjectId: Number(company), associationTypes: [{ category: 'PLATFORM_DEFINED', typeId: 279, label: null }] },
    ]);
    const back = await h.ok('associations', 'list', {
      fromObjectType: 'company',
      fromObjectId: company,
      toObjectType: '0-1',
    });
    expect(back.result.results).toEqual([
      { toObjectId: Number(contact), associationTypes: [{ category: 'PLATFORM_DEFINED', typeId: 280, label: null }] },
    ]);
  });

  it('is idempotent, adds the unlabeled type with a primary label, and accepts USER_DEFINED', async () => {
    await h.ok('associations', 'create', assoc(1, ['contacts', contact], ['companies', company]));
    await h.ok('associations', 'create', assoc(1, ['contacts', contact], ['companies', company]));
    const user = await h.ok(
      'associations',
      'create',
      assoc(77, ['contacts', contact], ['companies', company], 'USER_DEFINED'),
    );
    expect(user.result.results[0].labels).toEqual(['Primary']);
    const fwd = await h.ok('associations', 'list', {
      fromObjectType: 'contacts',
      fromObjectId: contact,
      toObjectType: 'companies',
    });
    expect(fwd.result.results).toEqual([
      {
        toObjectId: Number(company),
        associationTypes: [
          { category: 'PLATFORM_DEFINED', typeId: 1, label: 'Primary' },
          { category: 'USER_DEFINED', typeId: 77, label: null },
          { category: 'PLATFORM_DEFINED', typeId: 279, label: null },
        ],
      },
    ]);
    const got = await h.ok('contacts', 'get', { contactId: contact, associations: 'companies,nonexistent' });
    expect(got.result.associations).toEqual({
      companies: {
        results: [
          { id: company, type: 'contact_to_company' },
          { id: company, type: 'contact_to_company_77' },
          { id: company, type: 'contact_to_company_unlabeled' },
        ],
      },
    });
  });

  it('validates the PLATFORM_DEFINED type id for the pair (all the spec pairs are accepted)', async () => {
    const ticket = (
      await h.ok('tickets', 'create', { properties: { subject: 'T', hs_pipeline: '0', hs_pipeline_stage: '1' } })
    ).result.id;
    const ids: Record<string, [string, string]> = {
      contacts: ['contacts', contact],
      companies: ['companies', company],
      deals: ['deals', deal],
      tickets: ['tickets', ticket],
    };
    const pairs: [string, string, number][] = [
      ['contacts', 'companies', 279],
      ['contacts', 'companies', 1],
      ['companies', 'contacts', 280],
      ['companies', 'contacts', 2],
      ['contacts', 'deals', 4],
      ['deals', 'contacts', 3],
      ['deals', 'companies', 341],
      ['deals', 'companies', 5],
      ['companies', 'deals', 342],
      ['companies', 'deals', 6],
      ['contacts', 'tickets', 15],
      ['tickets', 'contacts', 16],
      ['tickets', 'companies', 339],
      ['tickets', 'companies', 26],
      ['companies', 'tickets', 340],
      ['companies', 'tickets', 25],
    ];
    for (const [a, b, typeId] of pairs) {
      const res = await h.call('associations', 'create', assoc(typeId, ids[a]!, ids[b]!));
      expect(res.status, `${a}->${b} ${typeId}`).toBe(200);
    }
    const wrong = await h.call('associations', 'create', assoc(280, ['contacts', contact], ['companies', company]));
    expect(wrong.status).toBe(400);
    expect(errorText(wrong.body)).toContain('279');
    const badCategory = await h.call(
      'associations',
      'create',
      assoc(279, ['contacts', contact], ['companies', company], 'HUBSPOT_DEFINED'),
    );
    expect(badCategory.status).toBe(400);
  });

  it('answers 404 for a missing record and 400 for an unknown object type', async () => {
    const missing = await h.call('associations', 'create', assoc(279, ['contacts', contact], ['companies', '99999']));
    expect(missing.status).toBe(404);
    expect(missing.body.errors[0].field).toBe('params.toObjectId');
    // A record of another type is not found under the wrong type.
    expect(
      (await h.call('associations', 'create', assoc(279, ['contacts', contact], ['companies', deal]))).status,
    ).toBe(404);
    const unknown = await h.call('associations', 'create', assoc(279, ['contacts', contact], ['planets', company]));
    expect(unknown.status).toBe(400);
    expect(unknown.body.errors[0].field).toBe('params.toObjectType');
    expect(
      (
        await h.call('associations', 'list', {
          fromObjectType: 'contacts',
          fromObjectId: '99999',
          toObjectType: 'companies',
        })
      ).status,
    ).toBe(404);
  });
});

describe('associations delete', () => {
  it('removes every association between the two records in both directions', async () => {
    await h.ok('associations', 'create', assoc(1, ['contacts', contact], ['companies', company]));
    const other = (await h.ok('companies', 'create', { properties: { name: 'Y' } })).result.id;
    await h.ok('associations', 'create', assoc(279, ['contacts', contact], ['companies', other]));
    const del = await h.ok('associations', 'delete', {
      fromObjectType: 'companies',
      fromObjectId: company,
      toObjectType: 'contacts',
      toObjectId: contact,
    });
    expect(del.result).toEqual({ status: 'COMPLETE', deleted: 2 });
    const fwd = await h.ok('associations', 'list', {
      fromObjectType: 'contacts',
      fromObjectId: contact,
      toObjectType: 'companies',
    });
    expect(fwd.result.results.map((r: any) => r.toObjectId)).toEqual([Number(other)]);
    const back = await h.ok('associations', 'list', {
      fromObjectType: 'companies',
      fromObjectId: company,
      toObjectType: 'contacts',
    });
    expect(back.result.results).toEqual([]);
    const again = await h.ok('associations', 'delete', {
      fromObjectType: 'companies',
      fromObjectId: company,
      toObjectType: 'contacts',
      toObjectId: contact,
    });
    expect(again.result.deleted).toBe(0);
  });
});

describe('associations list paging', () => {
  it('pages targets by toObjectId with after; default and maximum limit 500', async () => {
    const ids: number[] = [];
    for (let i = 0; i < 5; i++) {
      const c = (await h.ok('contacts', 'create', { properties: { email: `p${i}@x.example` } })).result.id;
      await h.ok('associations', 'create', assoc(280, ['companies', company], ['contacts', c]));
      ids.push(Number(c));
    }
    const seen: number[] = [];
    let after: string | undefined;
    for (;;) {
      const page = await h.ok('associations', 'list', {
        fromObjectType: 'companies',
        fromObjectId: company,
        toObjectType: 'contacts',
        limit: 2,
        ...(after && { after }),
      });
      seen.push(...page.result.results.map((r: any) => r.toObjectId));
      if (!page.connector_metadata.has_next_page) {
        expect(page.result.paging).toBeUndefined();
        break;
      }
      expect(page.result.paging.next.after).toBe(page.connector_metadata.next_cursor);
      expect(page.connector_metadata.next_link).toContain('after=');
      after = page.connector_metadata.end_cursor;
    }
    expect(seen).toEqual(ids);
    expect(
      (
        await h.call('associations', 'list', {
          fromObjectType: 'companies',
          fromObjectId: company,
          toObjectType: 'contacts',
          limit: 500,
        })
      ).status,
    ).toBe(200);
    expect(
      (
        await h.call('associations', 'list', {
          fromObjectType: 'companies',
          fromObjectId: company,
          toObjectType: 'contacts',
          limit: 501,
        })
      ).status,
    ).toBe(400);
    const cursor = await h.call('associations', 'list', {
      fromObjectType: 'companies',
      fromObjectId: company,
      toObjectType: 'contacts',
      cursor: 'x',
    });
    expect(cursor.status).toBe(400);
    expect(cursor.body.message).toContain('after');
  });

  it('includes v3 associations on list records', async () => {
    await h.ok('associations', 'create', assoc(3, ['deals', deal], ['contacts', contact]));
    const list = await h.ok('deals', 'list', { associations: 'contacts,companies' });
    expect(list.result[0].associations).toEqual({ contacts: { results: [{ id: contact, type: 'deal_to_contact' }] } });
  });
});
