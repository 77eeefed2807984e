import { writeContactsFixture } from '/work/wt/service/bench/lib/contacts-fixture.mjs';
import { startService } from '/work/wt/service/dist/index.js';
const file = '/tmp/prof-load/c.json';
await writeContactsFixture(file, 30000);
const svc = await startService({ db: ':memory:', fixtures: file });
const t0 = performance.now();
for (;;) {
  const { sql } = await import('/work/wt/service/node_modules/kysely/dist/esm/index.js');
  const r = await sql`select status from cs_state where entity = 'contacts'`.execute(svc.store.db);
  if (r.rows[0]?.status === 'Ready') break;
  await new Promise((res) => setTimeout(res, 200));
}
console.log('index ms', Math.round(performance.now() - t0));
await svc.close();
