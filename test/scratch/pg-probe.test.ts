import { test, expect } from 'vitest';
import { Queue, Worker, FlowProducer, createPostgresBackend, type Job } from 'bullmq';
import { startPostgresServer } from '../helpers/postgres-server.js';

test('probe', async () => {
  const pg = await startPostgresServer();
  try {
    const conn = { connectionString: pg.url, migrate: true };
    const q = new Queue('q1', { connection: conn }, createPostgresBackend);
    await q.waitUntilReady();
    const w = new Worker('q1', async (job: Job) => {
      if (job.name === 'parent') {
        const deps = await job.getDependencies({ unprocessed: { cursor: 0, count: 100 } });
        console.log('deps', JSON.stringify(deps), job.queueQualifiedName, job.prefix);
        return 'p';
      }
      return job.data.n * 2;
    }, { connection: conn }, createPostgresBackend);
    await q.add('x', { n: 2 }, { jobId: 'run-abc' });
    await new Promise((r) => setTimeout(r, 1500));
    const j = await q.getJob('run-abc');
    console.log('state', await j?.getState(), j?.returnvalue);
    await q.upsertJobScheduler('s1', { every: 1000 }, { name: 'x', data: { n: 1 } });
    console.log(await q.getJobSchedulers(0, -1, true));
    const fp = new FlowProducer({ connection: conn }, createPostgresBackend);
    await fp.add({ name: 'parent', queueName: 'q1', data: {}, children: [{ name: 'c', queueName: 'q1', data: { n: 3 }, opts: { jobId: 'c1' } }] });
    await new Promise((r) => setTimeout(r, 3000));
    const jobs = await q.getJobs(['completed'], 0, 100);
    console.log(jobs.map((x) => [x.id, x.name, x.returnvalue]));
    await fp.close(); await w.close(); await q.close();
  } finally { await pg.stop(); }
  expect(1).toBe(1);
}, 60000);
