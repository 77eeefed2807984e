// Figure 3: service throughput. autocannon (in this process) drives the service (another process) at 64
// connections: execute get by id and execute list limit 100, each against a bare Fastify route in the
// service's process that answers a fixed JSON body of the same size.
import autocannon from 'autocannon';

/** @typedef {import('../lib/section-context.mjs').Log} Log */

/**
 * One load: POST `body` with `headers` for `seconds`.
 * @typedef {{ headers: Record<string, string>, body: string, seconds: number }} Load
 */

/** @typedef {{ rps: number, p50: number, p99: number, requests: number }} LoadResult  requests/s, latency in ms. */

/**
 * @param {string} url
 * @param {Load} load
 * @returns {Promise<autocannon.Result>}
 */
function load(url, { headers, body, seconds }) {
  return new Promise((resolve, reject) => {
    autocannon({ url, method: 'POST', headers, body, connections: 64, duration: seconds }, (err, result) =>
      err ? reject(err) : resolve(result),
    );
  });
}

/**
 * Runs one load; fails on any non-2xx answer, error or timeout (a throughput of failures means nothing).
 * @param {string} name
 * @param {string} url
 * @param {Load} opts
 * @param {Log} log
 * @returns {Promise<LoadResult>}
 */
async function measure(name, url, opts, log) {
  const r = await load(url, opts);
  const ok = r['2xx'];
  if (r.non2xx > 0 || r.errors > 0 || r.timeouts > 0 || ok === 0) {
    throw new Error(
      `${name}: ${r.non2xx} non-2xx, ${r.errors} errors, ${r.timeouts} timeouts of ${r.requests.sent} requests`,
    );
  }
  const out = { rps: r.requests.average, p50: r.latency.p50, p99: r.latency.p99, requests: ok };
  log(`  ${name}: ${Math.round(out.rps)} req/s, p50 ${out.p50} ms, p99 ${out.p99} ms (${ok} requests)`);
  return out;
}

/**
 * Runs the four loads (get, bare get, list, bare list) for `seconds` each.
 * @param {import('../lib/section-context.mjs').ServiceContext} ctx
 * @param {number} seconds
 */
export async function benchThroughput({ server, figures, log }, seconds) {
  const list = await server.execute({ entity: 'contacts', action: 'list', params: { limit: 100 } });
  const page = list.status === 200 ? /** @type {import('../lib/service.mjs').ListEnvelope} */ (list.json) : null;
  const contact = page?.result.length === 100 ? page.result[37] : undefined;
  if (contact === undefined) throw new Error('contacts list for the throughput sample failed');
  const contactId = contact.id;
  const getBody = JSON.stringify({ entity: 'contacts', action: 'get', params: { contactId } });
  const listBody = JSON.stringify({ entity: 'contacts', action: 'list', params: { limit: 100 } });
  const get = await server.execute(JSON.parse(getBody));
  if (get.status !== 200) throw new Error(`contacts get: HTTP ${get.status}`);
  // The bare routes answer exactly the envelopes the service answers (same size once serialized).
  await server.setBareBodies(get.json, list.json);
  log(
    `throughput: autocannon, 64 connections, ${seconds} s per load; get body ${get.text.length} B, list body ${list.text.length} B`,
  );

  const headers = server.authHeaders;
  const exec = `${server.url}${server.executePath}`;
  const bareGet = await measure(
    'bare route (get-sized body)',
    `${server.bareUrl}/bare/get`,
    { headers: { 'content-type': 'application/json' }, body: getBody, seconds },
    log,
  );
  const realGet = await measure('execute contacts.get', exec, { headers, body: getBody, seconds }, log);
  const bareList = await measure(
    'bare route (list-sized body)',
    `${server.bareUrl}/bare/list`,
    { headers: { 'content-type': 'application/json' }, body: listBody, seconds },
    log,
  );
  const realList = await measure('execute contacts.list limit 100', exec, { headers, body: listBody, seconds }, log);

  const s = '3 throughput';
  figures.add({
    section: s,
    name: 'execute get by id, requests/s',
    unit: 'req/s',
    value: realGet.rps,
    comparison: bareGet.rps,
    comparisonName: 'bare route',
    target: { of: 'ratio', op: '>=', limit: 0.5 },
  });
  figures.add({
    section: s,
    name: 'execute get by id, p50 latency',
    unit: 'ms',
    value: realGet.p50,
    comparison: bareGet.p50,
    comparisonName: 'bare route',
  });
  figures.add({
    section: s,
    name: 'execute get by id, p99 latency',
    unit: 'ms',
    value: realGet.p99,
    comparison: bareGet.p99,
    comparisonName: 'bare route',
  });
  figures.add({
    section: s,
    name: 'execute list limit 100, requests/s',
    unit: 'req/s',
    value: realList.rps,
    comparison: bareList.rps,
    comparisonName: 'bare route',
  });
  figures.add({
    section: s,
    name: 'execute list limit 100, p50 latency',
    unit: 'ms',
    value: realList.p50,
    comparison: bareList.p50,
    comparisonName: 'bare route',
  });
  figures.add({
    section: s,
    name: 'execute list limit 100, p99 latency',
    unit: 'ms',
    value: realList.p99,
    comparison: bareList.p99,
    comparisonName: 'bare route',
  });
  return { bareGet, realGet, bareList, realList, getBytes: get.text.length, listBytes: list.text.length };
}
