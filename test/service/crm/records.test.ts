import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { crmHarness, errorText, type CrmHarness } from './crm-helpers.js';

let h: CrmHarness;
beforeEach(async () => {
  h = await crmHarness();
});
afterEach(async () => {
  await h.close();
});

describe('companies, deals, tickets', () => {
  it('creates a company (name required) with hs_lastmodifieddate and number checks', async () => {
    const { result } = await h.ok('companies', 'create', {
      properties: { name: 'Acme', domain: 'acme.example', numberofemployees: 42, annualrevenue: '1000.5' },
    });
    expect(result.properties).toMatchObject({
      name: 'Acme',
      domain: 'acme.example',
      numberofemployees: '42',
      annualrevenue: '1000.5',
      hs_object_id: result.id,
    });
    expect(result.properties.hs_lastmodifieddate).toBe(result.updatedAt);
    expect(result.properties.createdate).toBe(result.createdAt);
    const missing = await h.call('companies', 'create', { properties: { domain: 'x.example' } });
    expect(missing.status).toBe(400);
    expect(errorText(missing.body)).toContain('name');
    const notNumber = await h.call('companies', 'create', { properties: { name: 'B', numberofemployees: 'many' } });
    expect(notNumber.status).toBe(400);
    expect(errorText(notNumber.body)).toContain('numberofemployees');
    // Example-only lists (industry, lifecyclestage) are not enforced.
    const free = await h.call('companies', 'create', {
      properties: { name: 'C', industry: 'SPACE_MINING', lifecyclestage: 'whatever' },
    });
    expect(free.status).toBe(200);
  });

  it('defaults a deal pipeline to "default", normalises closedate and rejects bad dates', async () => {
    const { result } = await h.ok('deals', 'create', {
      properties: { dealname: 'Big one', amount: 1200, closedate: '2026-04-01', dealstage: 'anything-goes' },
    });
    expect(result.properties.pipeline).toBe('default');
    expect(result.properties.closedate).toBe('2026-04-01T00:00:00.000Z');
    expect(result.properties.amount).toBe('1200');
    const epoch = await h.ok('deals', 'create', { properties: { dealname: 'Epoch', closedate: '1775001600000' } });
    expect(epoch.result.properties.closedate).toBe(new Date(1775001600000).toISOString());
    for (const bad of ['tomorrow', '2026-02-30', '2026-13-01T00:00:00Z']) {
      const res = await h.call('deals', 'create', { properties: { dealname: 'Bad', closedate: bad } });
      expect(res.status, bad).toBe(400);
      expect(errorText(res.body)).toContain('closedate');
    }
    const noName = await h.call('deals', 'create', { properties: { amount: '5' } });
    expect(noName.status).toBe(400);
    const badAmount = await h.call('deals', 'update', { dealId: result.id, properties: { amount: 'lots' } });
    expect(badAmount.status).toBe(400);
    // An update does not put the default pipeline back.
    const upd = await h.ok('deals', 'update', { dealId: result.id, properties: { pipeline: '' } });
    expect(upd.result.properties.pipeline).toBeUndefined();
  });

  it('requires ticket subject, pipeline and stage and validates them against the default pipeline', async () => {
    const { result } = await h.ok('tickets', 'create', {
      properties: { subject: 'Help', hs_pipeline: '0', hs_pipeline_stage: '1', hs_ticket_priority: 'HIGH' },
    });
    expect(result.properties).toMatchObject({
      subject: 'Help',
      hs_pipeline: '0',
      hs_pipeline_stage: '1',
      hs_ticket_priority: 'HIGH',
    });
    const missing = await h.call('tickets', 'create', { properties: { subject: 'Help' } });
    expect(missing.status).toBe(400);
    expect(errorText(missing.body)).toContain('hs_pipeline');
    expect(errorText(missing.body)).toContain('hs_pipeline_stage');
    const badStage = await h.call('tickets', 'create', {
      properties: { subject: 'S', hs_pipeline: '0', hs_pipeline_stage: '9' },
    });
    expect(badStage.status).toBe(400);
    const badPipeline = await h.call('tickets', 'create', {
      properties: { subject: 'S', hs_pipeline: '7', hs_pipeline_stage: '1' },
    });
    expect(badPipeline.status).toBe(400);
    const badPriority = await h.call('tickets', 'create', {
      properties: { subject: 'S', hs_pipeline: '0', hs_pipeline_stage: '1', hs_ticket_priority: 'URGENT' },
    });
    expect(badPriority.status).toBe(400);
    expect(errorText(badPriority.body)).toContain('hs_ticket_priority');
    const cleared = await h.ok('tickets', 'update', {
      ticketId: result.id,
      properties: { hs_ticket_priority: '', hs_pipeline_stage: '4' },
    });
    expect(cleared.result.properties.hs_ticket_priority).toBeUndefined();
    expect(cleared.result.properties.hs_pipeline_stage).toBe('4');
  });

  it('rejects unknown params and wrong param types through the schema', async () => {
    const extra = await h.call('companies', 'list', { colour: 'red' });
    expect(extra.status).toBe(400);
    expect(errorText(extra.body)).toContain('colour');
    const badType = await h.call('companies', 'get', { companyId: 5 });
    expect(badType.status).toBe(400);
    const noId = await h.call('companies', 'get', {});
    expect(noId.status).toBe(400);
    expect(errorText(noId.body)).toContain('companyId');
  });
});

describe('list paging', () => {
  async function makeCompanies(n: number): Promise<string[]> {
    const ids: string[] = [];
    for (let i = 0; i < n; i++)
      ids.push((await h.ok('companies', 'create', { properties: { name: `Co ${i}` } })).result.id);
    return ids;
  }

  it('pages in id order with after, has_next_page, end_cursor = next_cursor and next_link', async () => {
    const ids = await makeCompanies(7);
    const seen: string[] = [];
    let after: string | undefined;
    let pages = 0;
    for (;;) {
      const page = await h.ok('companies', 'list', { limit: 3, ...(after && { after }) });
      pages++;
      seen.push(...page.result.map((r: any) => r.id));
      const meta = page.connector_metadata;
      if (!meta.has_next_page) {
        expect(meta.end_cursor).toBeNull();
        break;
      }
      expect(meta.end_cursor).toBe(meta.next_cursor);
      expect(meta.next_link).toContain(`after=${meta.end_cursor}`);
      expect(meta.next_link).toContain(`/api/v1/integrations/connectors/${h.connectorId}/execute`);
      after = meta.end_cursor;
    }
    expect(pages).toBe(3);
    expect(seen).toEqual(ids);
  });

  it('defaults limit to 25, caps at 100 (50 with propertiesWithHistory) with a 400, and rejects cursor naming after', async () => {
    await makeCompanies(27);
    const page = await h.ok('companies', 'list', {});
    expect(page.result).toHaveLength(25);
    expect(page.connector_metadata.has_next_page).toBe(true);
    expect((await h.call('companies', 'list', { limit: 100 })).status).toBe(200);
    expect((await h.call('companies', 'list', { limit: 101 })).status).toBe(400);
    expect((await h.call('companies', 'list', { limit: 0 })).status).toBe(400);
    expect((await h.call('companies', 'list', { limit: 50, propertiesWithHistory: 'name' })).status).toBe(200);
    const tooMany = await h.call('companies', 'list', { limit: 51, propertiesWithHistory: 'name' });
    expect(tooMany.status).toBe(400);
    expect(errorText(tooMany.body)).toContain('50');
    const cursor = await h.call('companies', 'list', { cursor: 'abc' });
    expect(cursor.status).toBe(400);
    expect(cursor.body.message).toContain('after');
    const badAfter = await h.call('companies', 'list', { after: 'xyz' });
    expect(badAfter.status).toBe(400);
  });

  it('returns only archived records with archived=true (activities)', async () => {
    const a = (await h.ok('notes', 'create', { properties: { hs_note_body: 'a' } })).result;
    const b = (await h.ok('notes', 'create', { properties: { hs_note_body: 'b' } })).result;
    await h.ok('notes', 'delete', { noteId: a.id });
    const live = await h.ok('notes', 'list', {});
    expect(live.result.map((r: any) => r.id)).toEqual([b.id]);
    const archived = await h.ok('notes', 'list', { archived: true });
    expect(archived.result.map((r: any) => r.id)).toEqual([a.id]);
    expect(archived.result[0].archived).toBe(true);
    expect(archived.result[0].archivedAt).toBe('2026-03-01T12:00:00.000Z');
  });
});

describe('propertiesWithHistory', () => {
  it('returns value history newest first with sourceType, and the current value in properties', async () => {
    const { result } = await h.ok('contacts', 'create', {
      properties: { email: 'h@example.com', lifecyclestage: 'lead' },
    });
    h.svc.clock.advance(1000);
    await h.ok('contacts', 'update', { contactId: result.id, properties: { lifecyclestage: 'customer' } });
    const got = await h.ok('contacts', 'get', {
      contactId: result.id,
      propertiesWithHistory: 'lifecyclestage,unknownprop',
    });
    expect(got.result.properties.lifecyclestage).toBe('customer');
    const hist = got.result.propertiesWithHistory.lifecyclestage;
    expect(hist.map((e: any) => e.value)).toEqual(['customer', 'lead']);
    expect(hist[0]).toMatchObject({ sourceType: 'API', timestamp: '2026-03-01T12:00:01.000Z' });
    expect(hist[1].timestamp).toBe('2026-03-01T12:00:00.000Z');
    expect(got.result.propertiesWithHistory.unknownprop).toBeUndefined();
    const list = await h.ok('contacts', 'list', { propertiesWithHistory: 'email' });
    expect(list.result[0].propertiesWithHistory.email[0].value).toBe('h@example.com');
  });
});

describe('requested property names', () => {
  it('treats prototype names like any unknown property: left out of properties and history', async () => {
    const { result } = await h.ok('contacts', 'create', { properties: { email: 'p@example.com' } });
    const plain = await h.ok('contacts', 'get', { contactId: result.id, properties: 'email,unknownprop' });
    for (const name of ['constructor', 'toString', 'valueOf', 'hasOwnProperty']) {
      const got = await h.ok('contacts', 'get', {
        contactId: result.id,
        properties: `email,${name},unknownprop`,
        propertiesWithHistory: name,
      });
      expect(got.result.properties).toEqual(plain.result.properties);
      expect(got.result.propertiesWithHistory ?? {}).toEqual({});
      const list = await h.ok('contacts', 'list', { properties: name });
      expect(Object.keys(list.result[0].properties)).not.toContain(name);
    }
  });
});
