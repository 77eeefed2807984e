import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/service/app.js';
import { openServiceStore as openStore } from '../../src/service/compose.js';
import { ensureApplication } from '../../src/service/store/provision.js';
import { createTestService, type TestService } from './helpers.js';

// execute remembers connector lookups while the database is unchanged; every change must be seen at once.
const list = { entity: 'contacts', action: 'list', params: { limit: 1 } };

describe('execute connector lookup cache', () => {
  let svc: TestService | undefined;
  const dirs: string[] = [];
  afterEach(async () => {
    await svc?.close();
    svc = undefined;
    for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
  });

  it('answers 404 right after the connector is deleted', async () => {
    svc = await createTestService();
    const id = await svc.createConnector('crm');
    expect((await svc.execute(id, list)).statusCode).toBe(200);
    expect((await svc.execute(id, list)).statusCode).toBe(200);
    const del = await svc.app.inject({
      method: 'DELETE',
      url: `/api/v1/integrations/connectors/${id}`,
      headers: await svc.auth(),
    });
    expect(del.statusCode).toBeLessThan(300);
    const res = await svc.execute(id, list);
    expect(res.statusCode).toBe(404);
    expect(res.json().errors[0]).toMatchObject({ field: 'path.id', error_code: 'not_found' });
  });

  it('refuses at once when the workspace turns inactive, and serves again when it is active', async () => {
    svc = await createTestService();
    const id = await svc.createConnector('crm');
    expect((await svc.execute(id, list)).statusCode).toBe(200);
    const put = (status: string) =>
      svc!.app.inject({
        method: 'PUT',
        url: `/api/v1/workspaces/${svc!.org.defaultWorkspaceId}`,
        headers: {},
        payload: { status },
      });
    const headers = await svc.auth();
    const setStatus = async (status: string) => {
      const r = await svc!.app.inject({
        method: 'PUT',
        url: `/api/v1/workspaces/${svc!.org.defaultWorkspaceId}`,
        headers,
        payload: { status },
      });
      expect(r.statusCode).toBe(200);
    };
    expect((await put('inactive')).statusCode).toBe(401); // no token: nothing changed
    await setStatus('inactive');
    const refused = await svc.execute(id, list);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().errors[0].error_code).toBe('workspace_inactive');
    await setStatus('active');
    expect((await svc.execute(id, list)).statusCode).toBe(200);
  });

  it('keeps organizations apart after a cached lookup', async () => {
    svc = await createTestService();
    const id = await svc.createConnector('crm');
    expect((await svc.execute(id, list)).statusCode).toBe(200);
    const other = await svc.createOrg();
    const res = await svc.execute(id, list, other);
    expect(res.statusCode).toBe(404);
    expect((await svc.execute(id, list)).statusCode).toBe(200);
  });

  it('sees a connector deleted by another connection to the same database file', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'recipe-lookup-'));
    dirs.push(dir);
    const path = join(dir, 'service.db');
    const store = await openStore({ path });
    const app = await buildApp({ store });
    const p = await ensureApplication(
      store,
      { clientId: 'c1', clientSecret: 'secret-lookup-cache', organizationName: 'o' },
      new Date(),
    );
    const tok = await app.inject({
      method: 'POST',
      url: '/api/v1/account/applications/token',
      payload: { client_id: p.clientId, client_secret: p.clientSecret },
    });
    const headers = { authorization: `Bearer ${tok.json().access_token as string}` };
    const created = await app.inject({
      method: 'POST',
      url: '/api/v1/integrations/connectors',
      headers,
      payload: { workspace_name: 'default', connector_type: 'crm' },
    });
    const id = created.json().id as string;
    const exec = () =>
      app.inject({ method: 'POST', url: `/api/v1/integrations/connectors/${id}/execute`, headers, payload: list });
    try {
      expect((await exec()).statusCode).toBe(200);
      expect((await exec()).statusCode).toBe(200);
      const second = await openStore({ path });
      try {
        await second.db.deleteFrom('connectors').where('id', '=', id).execute();
      } finally {
        await second.close();
      }
      expect((await exec()).statusCode).toBe(404);
    } finally {
      await app.close();
      await store.close();
    }
  });
});
