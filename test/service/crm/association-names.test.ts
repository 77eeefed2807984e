/** Symbolic association type names (deal_to_company) accepted wherever a numeric associationTypeId is. */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { crmConnector } from '../../../src/service/connectors/crm/index.js';
import { crmHarness, directContext, errorText, type CrmHarness } from './crm-helpers.js';

let h: CrmHarness;
let company: string;
let deal: string;
beforeEach(async () => {
  h = await crmHarness();
  company = (await h.ok('companies', 'create', { properties: { name: 'X' } })).result.id;
  deal = (await h.ok('deals', 'create', { properties: { dealname: 'D' } })).result.id;
});
afterEach(async () => {
  await h.close();
});

const link = (typeId: number | string, category = 'PLATFORM_DEFINED') => ({
  associationCategory: category,
  associationTypeId: typeId,
  fromObjectType: 'deals',
  fromObjectId: deal,
  toObjectType: 'companies',
  toObjectId: company,
});

async function typeIdsBetween(): Promise<number[]> {
  const out = await h.ok('associations', 'list', {
    fromObjectType: 'deals',
    fromObjectId: deal,
    toObjectType: 'companies',
  });
  return out.result.results[0].associationTypes
    .map((t: { typeId: number }) => t.typeId)
    .sort((a: number, b: number) => a - b);
}

describe('association type names', () => {
  it('associations create takes deal_to_company (primary, 5) and deal_to_company_unlabeled (341)', async () => {
    const primary = await h.ok('associations', 'create', link('deal_to_company'));
    expect(primary.result.results[0].labels).toEqual(['Primary']);
    expect(await typeIdsBetween()).toEqual([5, 341]);
    await h.ok('associations', 'delete', {
      fromObjectType: 'deals',
      fromObjectId: deal,
      toObjectType: 'companies',
      toObjectId: company,
    });
    await h.ok('associations', 'create', link('deal_to_company_unlabeled'));
    expect(await typeIdsBetween()).toEqual([341]);
  });

  it('refuses a name of another pair with a 400 that lists the names of this pair', async () => {
    const r = await h.call('associations', 'create', link('contact_to_company'));
    expect(r.status).toBe(400);
    expect(r.body.errors[0].field).toBe('params.associationTypeId');
    expect(errorText(r.body)).toContain('names for this pair: deal_to_company_unlabeled, deal_to_company');
  });

  it('refuses names for USER_DEFINED and anything that is not a name', async () => {
    expect((await h.call('associations', 'create', link('deal_to_company', 'USER_DEFINED'))).status).toBe(400);
    expect((await h.call('associations', 'create', link('Deal To Company'))).status).toBe(400);
    expect((await h.call('associations', 'create', link('341'))).status).toBe(400);
  });

  it('an activity create takes names in associations[].types[]', async () => {
    const task = await h.ok('tasks', 'create', {
      properties: { hs_task_subject: 'Call back' },
      associations: [
        { to: { id: deal }, types: [{ associationCategory: 'PLATFORM_DEFINED', associationTypeId: 'task_to_deal' }] },
      ],
    });
    const out = await h.ok('associations', 'list', {
      fromObjectType: 'tasks',
      fromObjectId: task.result.id,
      toObjectType: 'deals',
    });
    expect(out.result.results[0].associationTypes.map((t: { typeId: number }) => t.typeId)).toEqual([216]);
    const wrong = await h.call('tasks', 'create', {
      properties: { hs_task_subject: 'x' },
      associations: [
        { to: { id: deal }, types: [{ associationCategory: 'PLATFORM_DEFINED', associationTypeId: 'note_to_deal' }] },
      ],
    });
    expect(wrong.status).toBe(400);
    expect(errorText(wrong.body)).toContain('task_to_deal');
  });

  it('a fixtures file takes names for typeId too', async () => {
    const fixtures = {
      companies: [{ id: '700', properties: { name: 'F' } }],
      deals: [{ id: '701', properties: { dealname: 'G' } }],
      associations: [
        { from: { type: 'deals', id: '701' }, to: { type: 'companies', id: '700' }, typeId: 'deal_to_company' },
      ],
    };
    const fresh = await crmHarness();
    const other = await crmHarness();
    try {
      await crmConnector.loadFixtures!(directContext(fresh), fixtures);
      const out = await fresh.ok('associations', 'list', {
        fromObjectType: 'deals',
        fromObjectId: '701',
        toObjectType: 'companies',
      });
      const ids = out.result.results[0].associationTypes.map((t: { typeId: number }) => t.typeId);
      expect(ids.sort((a: number, b: number) => a - b)).toEqual([5, 341]);
      const wrong = { ...fixtures, associations: [{ ...fixtures.associations[0], typeId: 'task_to_deal' }] };
      await expect(crmConnector.loadFixtures!(directContext(other), wrong)).rejects.toThrow(/typeId/);
    } finally {
      await fresh.close();
      await other.close();
    }
  });
});
