import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestService, type TestService } from '../helpers.js';

let svc: TestService;
let crm: string;
beforeEach(async () => {
  svc = await createTestService();
  crm = await svc.createConnector('crm');
});
afterEach(async () => {
  await svc.close();
});

const note = (body: string) => ({
  entity: 'notes',
  action: 'create',
  params: { properties: { hs_note_body: body, hs_timestamp: '2025-01-01T00:00:00Z' } },
});

async function send(body: Record<string, unknown>, key?: string, org = svc.org, connector = crm) {
  return svc.app.inject({
    method: 'POST',
    url: `/api/v1/integrations/connectors/${connector}/execute`,
    headers: { ...(await org.auth()), ...(key !== undefined ? { 'idempotency-key': key } : {}) },
    payload: body,
  });
}

async function countNotes(body: string, org = svc.org, connector = crm): Promise<number> {
  const res = await send(
    { entity: 'notes', action: 'list', params: { limit: 100, properties: 'hs_note_body' } },
    undefined,
    org,
    connector,
  );
  const list = res.json().result as { properties: { hs_note_body: string } }[];
  return list.filter((n) => n.properties.hs_note_body === body).length;
}

describe('Idempotency-Key on execute', () => {
  it('answers the stored first answer (same status and body) to a repeat, without writing again', async () => {
    const first = await send(note('once'), 'k-1');
    const again = await send(note('once'), 'k-1');
    expect(first.statusCode).toBe(200);
    expect(again.statusCode).toBe(first.statusCode);
    expect(again.body).toBe(first.body);
    expect(first.headers['idempotent-replayed']).toBe('false');
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(await countNotes('once')).toBe(1);
  });

  it('lets concurrent repeats of one key write once: the later ones replay the first answer', async () => {
    const answers = await Promise.all([1, 2, 3, 4].map(() => send(note('together'), 'k-5')));
    expect(new Set(answers.map((a) => a.body)).size).toBe(1);
    expect(answers.filter((a) => a.headers['idempotent-replayed'] === 'false')).toHaveLength(1);
    expect(await countNotes('together')).toBe(1);
  });

  it('answers 422 idempotency_key_reused to the same key with another body', async () => {
    expect((await send(note('a'), 'k-2')).statusCode).toBe(200);
    const reused = await send(note('b'), 'k-2');
    expect(reused.statusCode).toBe(422);
    expect(reused.json().errors[0]).toMatchObject({
      error_code: 'idempotency_key_reused',
      field: 'header.idempotency-key',
    });
    expect(await countNotes('b')).toBe(0);
  });

  it('keeps keys per organization', async () => {
    const other = await svc.createOrg();
    const theirs = await svc.createConnector('crm', { org: other });
    expect((await send(note('mine'), 'shared-key')).statusCode).toBe(200);
    expect((await send(note('mine'), 'shared-key', other, theirs)).headers['idempotent-replayed']).toBe('false');
    expect(await countNotes('mine', other, theirs)).toBe(1);
  });

  it('forgets a key after 24 hours', async () => {
    svc.clock.set(new Date('2030-01-01T00:00:00Z'));
    await send(note('daily'), 'k-3');
    svc.clock.advance(24 * 60 * 60 * 1000 + 1000);
    expect((await send(note('daily'), 'k-3')).headers['idempotent-replayed']).toBe('false');
    expect(await countNotes('daily')).toBe(2);
  });

  it('stores no failed answer: a failed write may be sent again with the same key', async () => {
    const bad = { entity: 'notes', action: 'create', params: { properties: { no_such_property: 'x' } } };
    const failed = await send(bad, 'k-4');
    expect(failed.statusCode).toBeGreaterThanOrEqual(400);
    expect(failed.headers['idempotent-replayed']).toBeUndefined();
    // The same key, now with a good body, is a new request (nothing was stored for the failure).
    expect((await send(note('after failure'), 'k-4')).statusCode).toBe(200);
  });

  it('ignores the key on reads, and refuses a malformed key (400)', async () => {
    const list = { entity: 'notes', action: 'list', params: { limit: 1 } };
    expect((await send(list, 'r-1')).headers['idempotent-replayed']).toBeUndefined();
    const bad = await send(note('x'), 'has space');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors[0].field).toBe('header.idempotency-key');
  });

  it('declares the header on execute in the OpenAPI document', async () => {
    const doc = (await svc.app.inject({ method: 'GET', url: '/api/v1/openapi.json' })).json();
    const params = doc.paths['/api/v1/integrations/connectors/{id}/execute'].post.parameters;
    expect(params).toContainEqual(expect.objectContaining({ name: 'Idempotency-Key', in: 'header' }));
  });
});
