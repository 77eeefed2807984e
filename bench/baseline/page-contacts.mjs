// Hand-written equivalent of bench/recipes/page-contacts.yaml (and, with --stream, stream-contacts.yaml):
// pages through every contact 100 at a time and transforms each page.
import { performance } from 'node:perf_hooks';
import { connect } from './common.mjs';

const t0 = performance.now();

const stream = process.argv.includes('--stream');
const api = await connect(1);
const rows = [];
let seen = 0;
/** @type {string | null | undefined} */
let after;
for (;;) {
  const page = /** @type {import('../lib/service.mjs').ListEnvelope} */ (
    await api.execute('contacts', 'list', { limit: 100, ...(after !== undefined && { after }) })
  );
  for (const c of page.result) {
    const row = {
      id: c.id,
      email: c.properties.email?.toLowerCase(),
      name: `${c.properties.firstname} ${c.properties.lastname}`,
    };
    if (!stream) rows.push(row);
    seen++;
  }
  if (!page.connector_metadata.has_next_page) break;
  after = page.connector_metadata.end_cursor;
}
await api.close();
process.stdout.write(`${JSON.stringify({ count: stream ? seen : rows.length, work_ms: performance.now() - t0 })}\n`);
