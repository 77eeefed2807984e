import { startService } from '../dist/index.js';
import { actionContext } from '../dist/service/core/service-context.js';
import { CompiledQuery } from '../node_modules/kysely/dist/esm/index.js';
const svc = await startService({ db: ':memory:', seed: 'demo', seedSize: 2000, contextStore: { hold: 'Loading' } });
const s = svc.app.service;
const crm = await svc.store.db.selectFrom('connectors').selectAll().where('name', 'like', 'CRM%').executeTakeFirstOrThrow();
const type = s.types.find((t) => t.definition.id === crm.definition_id);
const ctx = actionContext(s, { id: crm.id, organizationId: crm.organization_id, workspaceId: crm.workspace_id, definitionId: crm.definition_id, name: crm.name }, 'http://x');
const list = await type.execute(ctx, 'contacts', 'list', { limit: 50 });
const id = list.result[37].id;
async function time(label, fn, n = 20000) {
  for (let i = 0; i < 2000; i++) await fn();
  const t0 = performance.now();
  for (let i = 0; i < n; i++) await fn();
  console.log(label.padEnd(30), ((performance.now() - t0) / n * 1000).toFixed(2), 'us');
}
await time('crm get', () => type.execute(ctx, 'contacts', 'get', { contactId: id }));
const q = CompiledQuery.raw('select id, object_type, properties, created_at, updated_at, archived, archived_at from "crm_records" where "connector_id" = ? and "id" = ? and "object_type" = ?', [crm.id, Number(id), 'contacts']);
await time('kysely executeQuery', () => svc.store.db.executeQuery(q));
await time('changeToken', () => svc.store.changeToken());
await time('JSON.stringify env', () => JSON.stringify({ status: 'success', result: list.result[0], connector_metadata: {}, execution_metadata: { a: 1 } }));
const h = { authorization: 'Bearer x' };
const tok = (await svc.app.inject({ method: 'POST', url: '/api/v1/account/applications/token', payload: { client_id: svc.credentials.clientId, client_secret: svc.credentials.clientSecret } })).json().access_token;
const auth = { authorization: 'Bearer ' + tok, 'content-type': 'application/json' };
const payload = JSON.stringify({ entity: 'contacts', action: 'get', params: { contactId: id } });
await time('inject execute get', () => svc.app.inject({ method: 'POST', url: `/api/v1/integrations/connectors/${crm.id}/execute`, headers: auth, payload }), 5000);
await time('inject definitions', () => svc.app.inject({ method: 'GET', url: `/api/v1/integrations/definitions/sources`, headers: auth }), 5000);
await svc.close();
