// The service under test, in its own process (so the load generator and the clients run elsewhere):
// startService from dist/ plus, in the same process, a bare Fastify app whose routes answer fixed JSON
// bodies (the throughput baseline). Talks to bench/lib/service.mjs over IPC.
import Fastify from 'fastify';
import { startService } from '../../dist/index.js';

const opts = JSON.parse(process.argv[2] ?? '{}');
const bodies = { get: {}, list: {} };

const svc = await startService({
  db: ':memory:',
  logLevel: 'silent',
  ...(opts.seedSize && { seed: 'demo', seedSize: opts.seedSize }),
  ...(opts.fixtures && { fixtures: opts.fixtures }),
  // Figures 1-3 must not share the CPU with a background index build.
  ...(opts.holdIndex && { contextStore: { hold: 'Loading' } }),
});

// Same body parsing as the execute route (JSON), no auth, no validation, no database: the floor.
const bare = Fastify({ logger: false });
bare.post('/bare/get', async () => bodies.get);
bare.post('/bare/list', async () => bodies.list);
await bare.listen({ host: '127.0.0.1', port: 0 });
const addr = bare.server.address();

process.on('message', async (msg) => {
  if (msg?.kind === 'bare') {
    bodies.get = msg.get;
    bodies.list = msg.list;
    process.send({ kind: 'bare-ok' });
  } else if (msg?.kind === 'stop') {
    await bare.close();
    await svc.close();
    process.exit(0);
  }
});
process.send({
  kind: 'ready',
  url: svc.url,
  bareUrl: `http://127.0.0.1:${addr.port}`,
  clientId: svc.credentials.clientId,
  clientSecret: svc.credentials.clientSecret,
  rssMb: process.memoryUsage().rss / 1048576,
});
