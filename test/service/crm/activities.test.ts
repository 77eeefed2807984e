import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { crmHarness, errorText, type CrmHarness } from './crm-helpers.js';

let h: CrmHarness;
beforeEach(async () => {
  h = await crmHarness();
});
afterEach(async () => {
  await h.close();
});

const NOW = '2026-03-01T12:00:00.000Z';

describe('activities: create defaults, enums, required', () => {
  it('defaults hs_timestamp to now and sets hs_createdate/hs_lastmodifieddate', async () => {
    const { result } = await h.ok('notes', 'create', { properties: { hs_note_body: '<b>hi</b>' } });
    expect(result.properties).toMatchObject({
      hs_note_body: '<b>hi</b>',
      hs_timestamp: NOW,
      hs_createdate: NOW,
      hs_lastmodifieddate: NOW,
      hs_object_id: result.id,
    });
    const got = await h.ok('notes', 'get', { noteId: result.id });
    expect(Object.keys(got.result.properties).sort()).toEqual(['hs_createdate', 'hs_lastmodifieddate', 'hs_object_id']);
    const given = await h.ok('calls', 'create', {
      properties: {
        hs_call_title: 'c',
        hs_timestamp: '2026-01-02T03:04:05Z',
        hs_call_direction: 'INBOUND',
        hs_call_status: 'ANY_STATUS_IS_AN_EXAMPLE',
        hs_call_duration: 3000,
      },
    });
    expect(given.result.properties).toMatchObject({
      hs_timestamp: '2026-01-02T03:04:05.000Z',
      hs_call_direction: 'INBOUND',
      hs_call_duration: '3000',
    });
  });

  it('defaults task status NOT_STARTED and type TODO and enforces task enums', async () => {
    const { result } = await h.ok('tasks', 'create', { properties: { hs_task_subject: 'Call back' } });
    expect(result.properties).toMatchObject({ hs_task_status: 'NOT_STARTED', hs_task_type: 'TODO', hs_timestamp: NOW });
    for (const [k, v] of [
      ['hs_task_status', 'DONE'],
      ['hs_task_priority', 'URGENT'],
      ['hs_task_type', 'MEETING'],
    ]) {
      const res = await h.call('tasks', 'create', { properties: { hs_task_subject: 'x', [k!]: v } });
      expect(res.status, k).toBe(400);
      expect(errorText(res.body)).toContain(k!);
    }
    expect((await h.call('tasks', 'create', { properties: {} })).status).toBe(400);
    expect(
      (await h.call('tasks', 'create', { properties: { hs_task_subject: 's', hs_task_reminders: 'soon' } })).status,
    ).toBe(400);
  });

  it('requires hs_email_direction, enforces email enums, and hs_email_to_email only on create', async () => {
    expect((await h.call('emails', 'create', { properties: { hs_email_subject: 's' } })).status).toBe(400);
    expect((await h.call('emails', 'create', { properties: { hs_email_direction: 'SIDEWAYS' } })).status).toBe(400);
    expect(
      (await h.call('emails', 'create', { properties: { hs_email_direction: 'EMAIL', hs_email_status: 'LOST' } }))
        .status,
    ).toBe(400);
    const { result } = await h.ok('emails', 'create', {
      properties: { hs_email_direction: 'EMAIL', hs_email_status: 'SENT', hs_email_to_email: 'a@b.example' },
    });
    expect(result.properties.hs_email_to_email).toBe('a@b.example');
    const upd = await h.call('emails', 'update', {
      emailId: result.id,
      properties: { hs_email_to_email: 'c@d.example' },
    });
    expect(upd.status).toBe(400);
    expect(errorText(upd.body)).toContain('hs_email_to_email');
  });

  it('requires a meeting title, validates meeting times and takes hs_timestamp from the start time', async () => {
    expect((await h.call('meetings', 'create', { properties: { hs_meeting_body: 'x' } })).status).toBe(400);
    const bad = await h.call('meetings', 'create', {
      properties: { hs_meeting_title: 'm', hs_meeting_start_time: 'next tuesday' },
    });
    expect(bad.status).toBe(400);
    expect(errorText(bad.body)).toContain('hs_meeting_start_time');
    const { result } = await h.ok('meetings', 'create', {
      properties: {
        hs_meeting_title: 'm',
        hs_meeting_start_time: '2026-03-05T10:00:00+01:00',
        hs_meeting_end_time: '2026-03-05T11:00:00+01:00',
        hs_meeting_outcome: 'ANYTHING',
      },
    });
    expect(result.properties.hs_meeting_start_time).toBe('2026-03-05T09:00:00.000Z');
    expect(result.properties.hs_timestamp).toBe('2026-03-05T09:00:00.000Z');
  });

  it('rejects a call direction outside INBOUND/OUTBOUND and a bad hs_timestamp', async () => {
    expect((await h.call('calls', 'create', { properties: { hs_call_direction: 'UP' } })).status).toBe(400);
    expect(
      (await h.call('notes', 'create', { properties: { hs_note_body: 'x', hs_timestamp: '31/12/2025' } })).status,
    ).toBe(400);
  });
});

describe('activities: delete archives', () => {
  it('archives, hides from get unless archived=true, refuses update, repeats harmlessly', async () => {
    const { result } = await h.ok('tasks', 'create', { properties: { hs_task_subject: 't' } });
    h.svc.clock.advance(5000);
    const del = await h.ok('tasks', 'delete', { taskId: result.id });
    expect(del.result).toEqual({ id: result.id, archived: true, archivedAt: '2026-03-01T12:00:05.000Z' });
    expect((await h.call('tasks', 'get', { taskId: result.id })).status).toBe(404);
    const archived = await h.ok('tasks', 'get', { taskId: result.id, archived: true });
    expect(archived.result).toMatchObject({ id: result.id, archived: true, archivedAt: '2026-03-01T12:00:05.000Z' });
    expect((await h.call('tasks', 'update', { taskId: result.id, properties: { hs_task_subject: 'u' } })).status).toBe(
      404,
    );
    const again = await h.ok('tasks', 'delete', { taskId: result.id });
    expect(again.result.archivedAt).toBe('2026-03-01T12:00:05.000Z');
    expect((await h.call('tasks', 'delete', { taskId: '424242' })).status).toBe(404);
    // A live record is not found with archived=true.
    const live = (await h.ok('tasks', 'create', { properties: { hs_task_subject: 'live' } })).result;
    expect((await h.call('tasks', 'get', { taskId: live.id, archived: true })).status).toBe(404);
  });
});

describe('activities: associations on create', () => {
  const table: Record<string, [string, number, number, number, number]> = {
    notes: ['hs_note_body', 202, 190, 214, 18],
    calls: ['hs_call_title', 194, 182, 206, 220],
    emails: ['hs_email_subject', 198, 186, 210, 224],
    meetings: ['hs_meeting_title', 200, 188, 212, 226],
    tasks: ['hs_task_subject', 204, 192, 216, 228],
  };

  it('accepts the spec type ids for every activity → record pair and shows them from both sides', async () => {
    const contact = (await h.ok('contacts', 'create', { properties: { email: 'a@x.example' } })).result.id;
    const company = (await h.ok('companies', 'create', { properties: { name: 'X' } })).result.id;
    const deal = (await h.ok('deals', 'create', { properties: { dealname: 'D' } })).result.id;
    const ticket = (
      await h.ok('tickets', 'create', { properties: { subject: 'T', hs_pipeline: '0', hs_pipeline_stage: '1' } })
    ).result.id;
    for (const [entity, [prop, toContact, toCompany, toDeal, toTicket]] of Object.entries(table)) {
      const extra = entity === 'emails' ? { hs_email_direction: 'EMAIL' } : {};
      const link = (id: string, typeId: number) => ({
        to: { id },
        types: [{ associationCategory: 'PLATFORM_DEFINED', associationTypeId: typeId }],
      });
      const { result } = await h.ok(entity, 'create', {
        properties: { [prop]: 'x', ...extra },
        associations: [link(contact, toContact), link(company, toCompany), link(deal, toDeal), link(ticket, toTicket)],
      });
      const got = await h.ok(entity, 'get', {
        [`${entity.slice(0, -1)}Id`]: result.id,
        associations: 'contacts,companies,deals,tickets',
      });
      expect(got.result.associations.contacts.results).toEqual([
        { id: contact, type: `${entity.slice(0, -1)}_to_contact` },
      ]);
      expect(got.result.associations.companies.results[0].id).toBe(company);
      expect(got.result.associations.deals.results[0].id).toBe(deal);
      expect(got.result.associations.tickets.results[0].id).toBe(ticket);
      const fromContact = await h.ok('associations', 'list', {
        fromObjectType: 'contacts',
        fromObjectId: contact,
        toObjectType: entity,
      });
      expect(fromContact.result.results).toEqual([
        {
          toObjectId: Number(result.id),
          associationTypes: [{ category: 'PLATFORM_DEFINED', typeId: toContact - 1, label: null }],
        },
      ]);
    }
  });

  it('accepts both 18 (spec) and 228 (upstream) for note → ticket', async () => {
    const ticket = (
      await h.ok('tickets', 'create', { properties: { subject: 'T', hs_pipeline: '0', hs_pipeline_stage: '1' } })
    ).result.id;
    for (const typeId of [18, 228]) {
      const { result } = await h.ok('notes', 'create', {
        properties: { hs_note_body: `n${typeId}` },
        associations: [
          { to: { id: ticket }, types: [{ associationCategory: 'PLATFORM_DEFINED', associationTypeId: typeId }] },
        ],
      });
      const list = await h.ok('associations', 'list', {
        fromObjectType: 'notes',
        fromObjectId: result.id,
        toObjectType: 'tickets',
      });
      expect(list.result.results[0].associationTypes[0].typeId).toBe(typeId);
      const back = await h.ok('associations', 'list', {
        fromObjectType: 'tickets',
        fromObjectId: ticket,
        toObjectType: 'notes',
      });
      expect(back.result.results.find((r: any) => r.toObjectId === Number(result.id)).associationTypes[0].typeId).toBe(
        227,
      );
    }
  });

  it('fails the whole create (nothing stored) on a missing target or a wrong type id', async () => {
    const contact = (await h.ok('contacts', 'create', { properties: { email: 'a@x.example' } })).result.id;
    const missing = await h.call('notes', 'create', {
      properties: { hs_note_body: 'x' },
      associations: [
        { to: { id: contact }, types: [{ associationCategory: 'PLATFORM_DEFINED', associationTypeId: 202 }] },
        { to: { id: '987654' }, types: [{ associationCategory: 'PLATFORM_DEFINED', associationTypeId: 202 }] },
      ],
    });
    expect(missing.status).toBe(404);
    expect(missing.body.errors[0].field).toBe('params.associations[1].to.id');
    const wrongType = await h.call('notes', 'create', {
      properties: { hs_note_body: 'x' },
      associations: [
        { to: { id: contact }, types: [{ associationCategory: 'PLATFORM_DEFINED', associationTypeId: 190 }] },
      ],
    });
    expect(wrongType.status).toBe(400);
    expect(errorText(wrongType.body)).toContain('202');
    const notes = await h.ok('notes', 'list', {});
    expect(notes.result).toEqual([]);
    const fromContact = await h.ok('associations', 'list', {
      fromObjectType: 'contacts',
      fromObjectId: contact,
      toObjectType: 'notes',
    });
    expect(fromContact.result.results).toEqual([]);
    // The failed creates did not burn the next id either: ids stay dense.
    const next = (await h.ok('notes', 'create', { properties: { hs_note_body: 'ok' } })).result.id;
    expect(Number(next)).toBe(Number(contact) + 1);
  });
});
