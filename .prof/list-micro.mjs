import { startService } from '../dist/index.js';
import { actionContext } from '../dist/service/core/service-context.js';
import { listPage } from '../dist/service/connectors/crm/records-store.js';
import { renderRecords } from '../dist/service/connectors/crm/record-view.js';
import { standardType } from '../dist/service/connectors/crm/object-types.js';
const svc = await startService({ db: ':memory:', seed: 'demo', seedSize: 5000, contextStore: { hold: 'Loading' } });
const s = svc.app.service;
const { listConnectors } = await import('../dist/service/store/connectors.js');
const ws = await svc.store.db.selectFrom('workspaces').select('id').executeTakeFirstOrThrow();
const conns = await listConnectors(svc.store.db, svc.organizationId, ws.id);
const crm = conns.find((c) => c.name.startsWith('CRM'));
const type = s.types.find((t) => t.definition.id === crm.definition_id);
const ctx = actionContext(s, { id: crm.id, organizationId: crm.organization_id, workspaceId: crm.workspace_id, definitionId: crm.definition_id, name: crm.name }, 'http://x');
const t = standardType('contacts');
async function time(label, fn, n = 2000) {
  for (let i = 0; i < 200; i++) await fn();
  const t0 = performance.now();
  for (let i = 0; i < n; i++) await fn();
  console.log(label, ((performance.now() - t0) / n * 1000).toFixed(1), 'us');
}
let rows;
await time('listPage 100', async () => { rows = await listPage(svc.store.db, crm.id, 'contacts', false, 0, 100); });
await time('render 100', async () => { await renderRecords(svc.store.db, crm.id, t, rows, { properties: null, propertiesWithHistory: null, associations: null }); });
let out;
await time('execute list', async () => { out = await type.execute(ctx, 'contacts', 'list', { limit: 100 }); });
await time('stringify result', async () => { JSON.stringify(out.result); });
await time('execute get', async () => { await type.execute(ctx, 'contacts', 'get', { contactId: '5' }); }, 5000);
const raw = svc.store.db;
await svc.close();
