const Database = (await import('../node_modules/better-sqlite3/lib/index.js')).default;
const db = new Database('/tmp/prof-load/l.db');
const cid = db.prepare("select id from connectors where name like 'CRM%'").pluck().get();
const qs = {
  star: 'select * from "crm_records" where "connector_id" = ? and "object_type" = ? and "archived" = ? and "id" >= ? order by "id" limit ?',
  cols: 'select id, properties, created_at, updated_at, archived, archived_at from "crm_records" where "connector_id" = ? and "object_type" = ? and "archived" = ? and "id" >= ? order by "id" limit ?',
  json: 'select id, json_extract(properties, \'$.firstname\') a, json_extract(properties, \'$.lastname\') b, json_extract(properties, \'$.email\') c, created_at, updated_at, archived, archived_at from "crm_records" where "connector_id" = ? and "object_type" = ? and "archived" = ? and "id" >= ? order by "id" limit ?',
  count: 'select count(*) from (select id from "crm_records" where "connector_id" = ? and "object_type" = ? and "archived" = ? and "id" >= ? order by "id" limit ?)',
};
for (const [k, q] of Object.entries(qs)) {
  const st = db.prepare(q); const args = [cid, 'contacts', 0, 0, 101];
  for (let i = 0; i < 300; i++) st.all(...args);
  let t0 = performance.now(); for (let i = 0; i < 2000; i++) st.all(...args); console.log(k, ((performance.now() - t0) / 2).toFixed(1), 'us');
  if (k !== 'count') { const r = st.raw(true); t0 = performance.now(); for (let i = 0; i < 2000; i++) r.all(...args); console.log(k, 'raw', ((performance.now() - t0) / 2).toFixed(1), 'us'); }
}
