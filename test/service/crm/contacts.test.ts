import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { crmHarness, errorText, type CrmHarness } from './crm-helpers.js';

let h: CrmHarness;
beforeEach(async () => {
  h = await crmHarness();
});
afterEach(async () => {
  await h.close();
});

describe('contacts create/get/update', () => {
  it('creates a contact with automatic properties and reads it back', async () => {
    const out = await h.ok('contacts', 'create', {
      properties: { email: 'Ada@Example.com', firstname: 'Ada', phone: 5551234 },
    });
    expect(out.status).toBe('success');
    const rec = out.result;
    expect(rec.id).toMatch(/^\d+$/);
    expect(rec.properties).toMatchObject({
      email: 'Ada@Example.com',
      firstname: 'Ada',
      phone: '5551234',
      hs_object_id: rec.id,
    });
    expect(rec.properties.createdate).toBe('2026-03-01T12:00:00.000Z');
    expect(rec.properties.lastmodifieddate).toBe(rec.createdAt);
    expect(rec.createdAt).toBe(rec.updatedAt);
    expect(rec.archived).toBe(false);

    const got = await h.ok('contacts', 'get', { contactId: rec.id });
    expect(got.result.properties).toEqual({
      email: 'Ada@Example.com',
      firstname: 'Ada',
      hs_object_id: rec.id,
      createdate: rec.createdAt,
      lastmodifieddate: rec.createdAt,
    });
  });

  it('returns requested properties, null for empty ones, ignores unknown names', async () => {
    const { result: rec } = await h.ok('contacts', 'create', { properties: { email: 'b@example.com' } });
    const got = await h.ok('contacts', 'get', { contactId: rec.id, properties: 'email,jobtitle,nonsense' });
    expect(got.result.properties).toEqual({
      email: 'b@example.com',
      jobtitle: null,
      hs_object_id: rec.id,
      createdate: rec.createdAt,
      lastmodifieddate: rec.updatedAt,
    });
  });

  it('updates only given properties, clears with "", moves lastmodifieddate', async () => {
    const { result: rec } = await h.ok('contacts', 'create', {
      properties: { email: 'c@example.com', firstname: 'C', lastname: 'Dee' },
    });
    h.svc.clock.advance(60_000);
    const upd = await h.ok('contacts', 'update', { contactId: rec.id, properties: { firstname: 'Cee', lastname: '' } });
    expect(upd.result.properties.firstname).toBe('Cee');
    expect(upd.result.properties.lastname).toBeUndefined();
    expect(upd.result.updatedAt).toBe('2026-03-01T12:01:00.000Z');
    expect(upd.result.properties.lastmodifieddate).toBe(upd.result.updatedAt);
    expect(upd.result.createdAt).toBe(rec.createdAt);
    const got = await h.ok('contacts', 'get', { contactId: rec.id, properties: 'lastname,email' });
    expect(got.result.properties.lastname).toBeNull();
    expect(got.result.properties.email).toBe('c@example.com');
  });

  it('answers 409 on a duplicate email (case-insensitive) on create and on update', async () => {
    const { result: first } = await h.ok('contacts', 'create', { properties: { email: 'dup@example.com' } });
    const again = await h.call('contacts', 'create', { properties: { email: 'DUP@example.com' } });
    expect(again.status).toBe(409);
    expect(again.body.message).toBe(`Contact already exists. Existing ID: ${first.id}`);
    expect(again.body.errors[0].error_code).toBe('conflict');
    const { result: second } = await h.ok('contacts', 'create', { properties: { email: 'other@example.com' } });
    const upd = await h.call('contacts', 'update', { contactId: second.id, properties: { email: 'Dup@Example.com' } });
    expect(upd.status).toBe(409);
    expect(upd.body.message).toBe(`Contact already exists. Existing ID: ${first.id}`);
    // Updating a contact to its own email (other case) is fine.
    const self = await h.call('contacts', 'update', { contactId: first.id, properties: { email: 'DUP@example.com' } });
    expect(self.status).toBe(200);
  });

  it('rejects unknown and non-writable properties naming them, and a missing email', async () => {
    const unknown = await h.call('contacts', 'create', {
      properties: { email: 'x@example.com', favourite_color: 'blue' },
    });
    expect(unknown.status).toBe(400);
    expect(errorText(unknown.body)).toContain('favourite_color');
    const readOnly = await h.call('contacts', 'create', {
      properties: { email: 'y@example.com', createdate: '2020-01-01' },
    });
    expect(readOnly.status).toBe(400);
    expect(errorText(readOnly.body)).toContain('createdate');
    const missing = await h.call('contacts', 'create', { properties: { firstname: 'NoMail' } });
    expect(missing.status).toBe(400);
    expect(errorText(missing.body)).toContain('email');
    const badMail = await h.call('contacts', 'create', { properties: { email: 'not-an-email' } });
    expect(badMail.status).toBe(400);
    const list = await h.ok('contacts', 'list', {});
    expect(list.result).toHaveLength(0);
  });

  it('finds a contact by email with idProperty (case-insensitive) and by hs_object_id', async () => {
    const { result: rec } = await h.ok('contacts', 'create', { properties: { email: 'Find.Me@example.com' } });
    const byEmail = await h.ok('contacts', 'get', { contactId: 'find.me@EXAMPLE.com', idProperty: 'email' });
    expect(byEmail.result.id).toBe(rec.id);
    const byId = await h.ok('contacts', 'get', { contactId: rec.id, idProperty: 'hs_object_id' });
    expect(byId.result.id).toBe(rec.id);
    const notUnique = await h.call('contacts', 'get', { contactId: 'x', idProperty: 'firstname' });
    expect(notUnique.status).toBe(400);
    const missing = await h.call('contacts', 'get', { contactId: 'nobody@example.com', idProperty: 'email' });
    expect(missing.status).toBe(404);
  });

  it('answers 404 for unknown ids on get and update', async () => {
    expect((await h.call('contacts', 'get', { contactId: '999999' })).status).toBe(404);
    expect((await h.call('contacts', 'get', { contactId: 'abc' })).status).toBe(404);
    const upd = await h.call('contacts', 'update', { contactId: '999999', properties: { firstname: 'x' } });
    expect(upd.status).toBe(404);
    expect(upd.body.errors[0].error_code).toBe('not_found');
  });

  it('has no delete action for contacts', async () => {
    const res = await h.call('contacts', 'delete', { contactId: '1' });
    expect(res.status).toBe(400);
  });
});
