// Hand-written equivalent of bench/recipes/fan-out.yaml: one get per id, 16 at a time, results in input order.
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { connect } from './common.mjs';

const t0 = performance.now();

const CONCURRENCY = 16;
const idsFile = process.argv[2];
if (!idsFile) throw new Error('usage: node bench/baseline/fan-out.mjs IDS.json');
/** @type {{ ids: string[] }} */
const { ids } = JSON.parse(readFileSync(idsFile, 'utf8'));
const api = await connect(CONCURRENCY);
/** @type {Array<string | null | undefined>} */
const emails = new Array(ids.length);
let next = 0;
async function worker() {
  while (next < ids.length) {
    const i = next++;
    const res = /** @type {{ result: { properties: Record<string, string | null | undefined> } }} */ (
      await api.execute('contacts', 'get', { contactId: ids[i] })
    );
    emails[i] = res.result.properties.email;
  }
}
await Promise.all(Array.from({ length: CONCURRENCY }, worker));
await api.close();
process.stdout.write(`${JSON.stringify({ count: emails.length, work_ms: performance.now() - t0 })}\n`);
