import { afterEach, describe, expect, it, vi } from 'vitest';
import { buildApp } from '../../src/service/app.js';
import { openServiceStore as openStore } from '../../src/service/compose.js';
import { ensureApplication } from '../../src/service/store/provision.js';
import { echoConnector, echoMigrations } from './support/echo-connector.js';

afterEach(() => {
  vi.restoreAllMocks();
});

describe('server log', () => {
  it('logs an unknown error server-side without the token or secrets', async () => {
    const lines: string[] = [];
    vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
      lines.push(String(chunk));
      return true;
    });
    const store = await openStore({ path: ':memory:', migrations: echoMigrations });
    const org = await ensureApplication(store, { clientId: 'log-app', clientSecret: 'log-secret-value' }, new Date());
    const app = await buildApp({ store, connectorTypes: [echoConnector], logLevel: 'info' });
    const tok = await app.inject({
      method: 'POST',
      url: '/api/v1/account/applications/token',
      payload: { client_id: org.clientId, client_secret: org.clientSecret },
    });
    const token = tok.json().access_token as string;
    const headers = { authorization: `Bearer ${token}` };
    const created = await app.inject({
      method: 'POST',
      url: '/api/v1/integrations/connectors',
      headers,
      payload: { workspace_name: 'default', connector_type: 'echo', credentials: { api_key: 'sk-hidden-42' } },
    });
    const res = await app.inject({
      method: 'POST',
      url: `/api/v1/integrations/connectors/${created.json().id}/execute`,
      headers,
      payload: { entity: 'files', action: 'boom' },
    });
    await app.close();
    await store.close();
    vi.restoreAllMocks();
    expect(res.statusCode).toBe(500);
    const log = lines.join('');
    // The failure is in the server log, with its message...
    expect(log).toContain('unhandled error');
    expect(log).toContain('internal failure with a stack');
    // ...but no credential of any kind.
    expect(log).not.toContain(token);
    expect(log).not.toContain('log-secret-value');
    expect(log).not.toContain('sk-hidden-42');
  });
});
