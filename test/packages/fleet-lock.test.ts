import { createHash } from 'node:crypto';
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openFleet, runJobData, type FleetClient } from '../../src/fleet/queue.js';
import { checkRecipe } from '../../src/run/index.js';
import { jobIdOf } from '../../src/fleet/job.js';
import { startService, type RunningService } from '../../src/service/start.js';
import { runCli } from '../cli/cli-process.js';
import { fleetEnv, spawnRecipe, stopProcess, until, type RecipeProcess } from '../fleet/fleet-process.js';
import { startRedisServer, type RedisServer } from '../helpers/redis-server.js';
import { Library, tempDir, writeFiles } from './git-repos.js';

/**
 * A submitted job carries the hash of recipe.lock (the packages' files are not pinned one by one: the lock pins
 * them); a worker whose lock differs refuses the job with P036. One redis-server, one in-process service, one
 * `recipe worker`.
 */
const fixtures = new URL('../cli/fixtures/crm.yaml', import.meta.url).pathname;
const COUNT = `version: 1
name: count-deals
connector: { definition: CRM }
steps:
  - id: deals
    paginate: { entity: deals, action: list, params: { limit: 100 } }
outputs:
  n: "\${ $count($deals) }"
`;

let root: string;
let project: string;
let redis: RedisServer;
let service: RunningService;
let worker: RecipeProcess;
let fleet: FleetClient;
let env: NodeJS.ProcessEnv;

const sha256 = (file: string) => createHash('sha256').update(readFileSync(file)).digest('hex');

beforeAll(async () => {
  root = tempDir('recipe-fleet-lock-');
  const lib = new Library(root, 'recipes');
  lib.commit({ 'crm/count.yaml': COUNT });
  lib.tag('v1.0.0');
  project = join(root, 'project');
  writeFiles(project, {
    'main.yaml': `version: 1\nname: main\nconnector: { definition: CRM }\nsteps:\n  - id: counted\n    call: git:${lib.url}//crm/count.yaml@v1.0.0\noutputs:\n  n: "\${ $counted.n }"\n`,
  });
  [redis, service] = await Promise.all([startRedisServer(), startService({ fixtures, logLevel: 'silent' })]);
  env = fleetEnv({
    RECIPE_STORE: join(root, 'store'),
    CI: '',
    CONNECTOR_API_URL: service.url,
    CONNECTOR_CLIENT_ID: service.credentials.clientId,
    CONNECTOR_CLIENT_SECRET: service.credentials.clientSecret,
    RECIPE_REDIS_URL: redis.url,
  });
  const installed = await runCli(['deps', 'install', '-C', project], { cwd: project, env });
  expect(installed.code, installed.stderr).toBe(0);
  worker = spawnRecipe(['worker', '--recipes', project], env, root);
  fleet = await openFleet(redis.url, 'recipe-runs');
  await until('the worker ready', 60_000, async () => (worker.output().includes('taking jobs') ? true : undefined));
}, 180_000);

afterAll(async () => {
  await fleet?.close();
  await stopProcess(worker);
  await service?.close();
  await redis?.stop();
});

const submit = (dir: string, ...args: string[]) =>
  runCli(['submit', join(dir, 'main.yaml'), '--recipes', dir, ...args], { cwd: root, env, timeoutMs: 120_000 });

describe('a fleet job pins recipe.lock', { timeout: 180_000 }, () => {
  it("carries the lock's hash, not the package's files; a worker with the same lock and store runs it", async () => {
    const r = await submit(project, '--run-id', 'same-lock', '--wait', '--json');
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).outputs).toEqual({ n: 3 });
    // The fleet's journal names the package and its commit, as the local one does.
    const shown = await runCli(['runs', 'show', 'same-lock', '--redis', redis.url, '--json'], { cwd: root, env });
    expect(JSON.parse(shown.stdout).packages).toEqual([
      { key: expect.stringMatching(/^git:file:.*@v1\.0\.0$/), resolved: expect.stringMatching(/^[0-9a-f]{40}$/) },
    ]);
    const job = await fleet.queue.getJob(jobIdOf('same-lock'));
    expect(job?.data).toMatchObject({
      recipe: 'main.yaml',
      files: [],
      lock_sha256: sha256(join(project, 'recipe.lock')),
    });
  });

  it('a worker whose recipe.lock differs refuses the job with P036 naming both hashes', async () => {
    // The same recipes, locked elsewhere: the lock's bytes differ (as after a `recipe deps update`).
    const other = join(root, 'other');
    cpSync(project, other, { recursive: true });
    const lockFile = join(other, 'recipe.lock');
    writeFileSync(lockFile, JSON.stringify(JSON.parse(readFileSync(lockFile, 'utf8'))));
    const r = await submit(other, '--run-id', 'other-lock', '--wait');
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('P036');
    expect(r.stderr).toContain(`sha256 ${sha256(join(project, 'recipe.lock')).slice(0, 12)}`);
    expect(r.stderr).toContain(`sha256 ${sha256(lockFile).slice(0, 12)}`);
    expect(r.stderr).toContain('recipe deps install --frozen');
    expect(await fleet.journal.getRun('other-lock')).toBeUndefined();
  });

  it('a recipe without recipe.lock is submitted with lock_sha256 null', async () => {
    const plain = join(root, 'plain');
    writeFiles(plain, { 'main.yaml': 'version: 1\nname: plain\nsteps:\n  - log: hello\n' });
    const checked = await checkRecipe(join(plain, 'main.yaml'));
    const data = await runJobData(checked.recipe!.plan, plain, { inputs: {} });
    expect(data).toMatchObject({ recipe: 'main.yaml', lock_sha256: null });
  });
});
