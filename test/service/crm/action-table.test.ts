import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { crmHarness, type CrmHarness } from './crm-helpers.js';

let h: CrmHarness;
beforeAll(async () => {
  h = await crmHarness();
});
afterAll(async () => {
  await h.close();
});

/** A valid create and a valid update per entity, and the id param. */
const ENTITIES: Record<string, { id: string; create: Record<string, unknown>; update: Record<string, unknown> }> = {
  contacts: { id: 'contactId', create: { email: 'row@x.example' }, update: { jobtitle: 'CTO' } },
  companies: { id: 'companyId', create: { name: 'Row Co' }, update: { city: 'Lyon' } },
  deals: { id: 'dealId', create: { dealname: 'Row deal' }, update: { dealstage: 'closedwon' } },
  tickets: {
    id: 'ticketId',
    create: { subject: 'Row', hs_pipeline: '0', hs_pipeline_stage: '1' },
    update: { hs_pipeline_stage: '2' },
  },
  notes: { id: 'noteId', create: { hs_note_body: 'row' }, update: { hs_note_body: 'row 2' } },
  calls: { id: 'callId', create: { hs_call_title: 'row' }, update: { hs_call_status: 'COMPLETED' } },
  emails: { id: 'emailId', create: { hs_email_direction: 'INCOMING_EMAIL' }, update: { hs_email_subject: 'Re: row' } },
  meetings: { id: 'meetingId', create: { hs_meeting_title: 'row' }, update: { hs_meeting_location: 'Room 2' } },
  tasks: { id: 'taskId', create: { hs_task_subject: 'row' }, update: { hs_task_status: 'COMPLETED' } },
};

describe('every record entity: create, get, list, update (and delete for activities)', () => {
  for (const [entity, t] of Object.entries(ENTITIES)) {
    it(entity, async () => {
      h.svc.clock.set(new Date('2026-03-01T12:00:00.000Z'));
      const created = (await h.ok(entity, 'create', { properties: t.create })).result;
      for (const [k, v] of Object.entries(t.create)) expect(created.properties[k]).toBe(v);
      const got = (await h.ok(entity, 'get', { [t.id]: created.id, properties: Object.keys(t.update).join(',') }))
        .result;
      expect(got.id).toBe(created.id);
      const listed = (await h.ok(entity, 'list', {})).result;
      expect(listed.map((r: any) => r.id)).toContain(created.id);
      h.svc.clock.set(new Date('2026-03-02T08:00:00.000Z'));
      const updated = (await h.ok(entity, 'update', { [t.id]: created.id, properties: t.update })).result;
      for (const [k, v] of Object.entries(t.update)) expect(updated.properties[k]).toBe(v);
      expect(updated.updatedAt).toBe('2026-03-02T08:00:00.000Z');
      expect(updated.createdAt).toBe('2026-03-01T12:00:00.000Z');
      const reread = (await h.ok(entity, 'get', { [t.id]: created.id, properties: Object.keys(t.update).join(',') }))
        .result;
      for (const [k, v] of Object.entries(t.update)) expect(reread.properties[k]).toBe(v);
      const del = await h.call(entity, 'delete', { [t.id]: created.id });
      if (['contacts', 'companies', 'deals', 'tickets'].includes(entity)) {
        expect(del.status).toBe(400);
        expect((await h.call(entity, 'api_search', {})).status).toBe(200);
      } else {
        expect(del.status).toBe(200);
        expect((await h.ok(entity, 'list', {})).result.map((r: any) => r.id)).not.toContain(created.id);
      }
    });
  }
});
