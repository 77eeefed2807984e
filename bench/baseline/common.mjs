// What a careful user writes by hand with undici: one keep-alive pool, a token, the CRM connector's id,
// then POST execute. Shared by the two hand-written baselines.
import { Pool } from 'undici';

/**
 * Opens a pool of `connections` to CONNECTOR_API_URL, logs in and finds the CRM connector.
 * @returns {Promise<{ execute: (entity: string, action: string, params: Record<string, unknown>) => Promise<unknown>, close: () => Promise<void> }>}
 */
export async function connect(connections = 1) {
  const base = process.env.CONNECTOR_API_URL;
  if (!base) throw new Error('CONNECTOR_API_URL is not set');
  const pool = new Pool(base, { connections, keepAliveTimeout: 10_000 });
  const tokenRes = await pool.request({
    method: 'POST',
    path: '/api/v1/account/applications/token',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      client_id: process.env.CONNECTOR_CLIENT_ID,
      client_secret: process.env.CONNECTOR_CLIENT_SECRET,
    }),
  });
  if (tokenRes.statusCode !== 200) throw new Error(`token: HTTP ${tokenRes.statusCode}`);
  const { access_token: token } = /** @type {{ access_token: string }} */ (await tokenRes.body.json());
  const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  const listRes = await pool.request({
    method: 'GET',
    path: '/api/v1/integrations/connectors?workspace_name=default',
    headers,
  });
  if (listRes.statusCode !== 200) throw new Error(`connectors: HTTP ${listRes.statusCode}`);
  const list = /** @type {{ data: Array<{ id: string, definition_name: string }> }} */ (await listRes.body.json());
  const crm = list.data.find((c) => c.definition_name === 'CRM');
  if (!crm) throw new Error('no CRM connector');
  const path = `/api/v1/integrations/connectors/${crm.id}/execute`;

  /**
   * One execute call; throws on a non-200 answer.
   * @param {string} entity
   * @param {string} action
   * @param {Record<string, unknown>} params
   */
  async function execute(entity, action, params) {
    const res = await pool.request({ method: 'POST', path, headers, body: JSON.stringify({ entity, action, params }) });
    const body = await res.body.json();
    if (res.statusCode !== 200) throw new Error(`${entity}.${action}: HTTP ${res.statusCode} ${JSON.stringify(body)}`);
    return body;
  }
  return { execute, close: () => pool.close() };
}
