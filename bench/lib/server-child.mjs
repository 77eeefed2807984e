// The service under test, in its own process (so the load generator and the clients run elsewhere):
// startService from dist/ plus, in the same process, a bare Fastify app whose routes answer fixed JSON
// bodies (the throughput baseline). Talks to bench/lib/service.mjs over IPC.
import Fastify from 'fastify';

/** @type {import('./service.mjs').ServerOptions} */
const opts = JSON.parse(process.argv[2] ?? '{}');
// `dist`: another build's dist/index.js (bench --base), else this checkout's.
/** @type {typeof import('../../dist/index.js')} */
const { startService } = await import(opts.dist ?? '../../dist/index.js');
/** @type {{ get: unknown, list: unknown }} */
const bodies = { get: {}, list: {} };

const send = process.send?.bind(process);
if (!send) throw new Error('bench/lib/server-child.mjs runs under fork() from bench/lib/service.mjs (it needs IPC)');
/** @param {import('./service.mjs').FromChild} msg */
const reply = (msg) => send(msg);

const svc = await startService({
  db: opts.db ?? ':memory:',
  ...(opts.clientId && opts.clientSecret && { clientId: opts.clientId, clientSecret: opts.clientSecret }),
  logLevel: 'silent',
  ...(opts.seedSize && { seed: 'demo', seedSize: opts.seedSize }),
  ...(opts.fixtures && { fixtures: opts.fixtures }),
  ...(opts.rateLimit && { rateLimit: opts.rateLimit }),
  // Figures 1-3 must not share the CPU with a background index build.
  ...(opts.holdIndex && { contextStore: { hold: 'Loading' } }),
  // The index build's records per step (bench --index-batch), to measure batch sizes.
  ...(opts.indexBatch && { contextStore: { batchSize: opts.indexBatch } }),
});

// Same body parsing as the execute route (JSON), no auth, no validation, no database: the floor.
const bare = Fastify({ logger: false });
bare.post('/bare/get', async () => bodies.get);
bare.post('/bare/list', async () => bodies.list);
await bare.listen({ host: '127.0.0.1', port: 0 });
const addr = bare.server.address();
if (addr === null || typeof addr === 'string') throw new Error(`bare routes: not on a TCP port (${addr})`);

process.on('message', async (raw) => {
  const msg = /** @type {import('./service.mjs').ToChild | undefined} */ (raw);
  if (msg?.kind === 'bare') {
    bodies.get = msg.get;
    bodies.list = msg.list;
    reply({ kind: 'bare-ok' });
  } else if (msg?.kind === 'cpu') {
    const { user, system } = process.cpuUsage();
    reply({ kind: 'cpu', ms: (user + system) / 1000 });
  } else if (msg?.kind === 'stop') {
    await bare.close();
    await svc.close();
    process.exit(0);
  }
});
reply({
  kind: 'ready',
  url: svc.url,
  bareUrl: `http://127.0.0.1:${addr.port}`,
  clientId: svc.credentials.clientId,
  clientSecret: svc.credentials.clientSecret,
  rssMb: process.memoryUsage().rss / 1048576,
});
