import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startService, type RunningService } from '../../src/service/start.js';
import { UNFINISHED_SEED } from '../../src/service/seed/demo.js';
import { createConnector } from '../../src/service/store/connectors.js';
import { echoConnector, echoDb, echoMigrations } from './support/echo-connector.js';

const running: RunningService[] = [];
const dirs: string[] = [];
afterEach(async () => {
  for (const s of running.splice(0)) await s.close();
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
function tempDir(): string {
  const d = mkdtempSync(join(tmpdir(), 'recipe-start-'));
  dirs.push(d);
  return d;
}
const echo = { connectorTypes: [echoConnector], migrations: echoMigrations };

async function start(opts: Parameters<typeof startService>[0]): Promise<RunningService> {
  const s = await startService(opts);
  running.push(s);
  return s;
}

async function defaultWorkspaceId(s: RunningService): Promise<string> {
  const row = await s.store.db
    .selectFrom('workspaces')
    .select('id')
    .where('organization_id', '=', s.organizationId)
    .where('name', '=', 'default')
    .executeTakeFirstOrThrow();
  return row.id as string;
}

async function token(s: RunningService, creds = s.credentials): Promise<string> {
  const res = await fetch(`${s.url}/api/v1/account/applications/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ client_id: creds.clientId, client_secret: creds.clientSecret }),
  });
  expect(res.status).toBe(200);
  return ((await res.json()) as { access_token: string }).access_token;
}

async function api(
  s: RunningService,
  tok: string,
  path: string,
  body?: unknown,
): Promise<{ status: number; json: any }> {
  const res = await fetch(`${s.url}${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { authorization: `Bearer ${tok}`, ...(body !== undefined && { 'content-type': 'application/json' }) },
    ...(body !== undefined && { body: JSON.stringify(body) }),
  });
  return { status: res.status, json: await res.json() };
}

async function listThings(
  s: RunningService,
  tok: string,
  workspace = 'default',
): Promise<{ name: string; labels: string[] }[]> {
  const list = await api(s, tok, `/api/v1/integrations/connectors?workspace_name=${workspace}`);
  expect(list.status).toBe(200);
  const out = [];
  for (const c of list.json.data) {
    const res = await api(s, tok, `/api/v1/integrations/connectors/${c.id}/execute`, {
      entity: 'things',
      action: 'list',
      params: { limit: 10 },
    });
    out.push({
      name: c.name,
      labels: res.json.result.map((r: { properties: { label: string } }) => r.properties.label),
    });
  }
  return out;
}

describe('startService', () => {
  it('listens on 127.0.0.1 with a free port and answers a token over HTTP', async () => {
    const s = await start({});
    expect(s.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const tok = await token(s);
    const ws = await api(s, tok, '/api/v1/workspaces');
    expect(ws.json.data.map((w: { name: string }) => w.name)).toEqual(['default']);
    expect(ws.json.data[0].organization_id).toBe(s.organizationId);
  });

  it('seeds one demo connector per seedable type into the default workspace', async () => {
    const s = await start({ ...echo, seed: 'demo', seedSize: 3 });
    const things = await listThings(s, await token(s));
    expect(things).toEqual([{ name: 'Echo Test demo', labels: ['demo 1', 'demo 2', 'demo 3'] }]);
  });

  it('keeps data, credentials and tokens across a restart of a file database, and does not seed twice', async () => {
    const db = join(tempDir(), 'svc.db');
    const creds = { clientId: 'ci-app', clientSecret: 'ci-secret-1' };
    const s1 = await start({ ...echo, db, seed: 'demo', seedSize: 2, ...creds });
    const tok = await token(s1);
    await s1.close();
    running.splice(running.indexOf(s1), 1);
    const s2 = await start({ ...echo, db, seed: 'demo', seedSize: 2, ...creds });
    expect(s2.organizationId).toBe(s1.organizationId);
    // The old token still works: the signing key is stored.
    expect(await listThings(s2, tok)).toEqual([{ name: 'Echo Test demo', labels: ['demo 1', 'demo 2'] }]);
  });

  it('replaces a demo connector whose seeding never finished (a killed first run) on the next demo seed', async () => {
    const db = join(tempDir(), 'svc.db');
    const creds = { clientId: 'ci-app', clientSecret: 'ci-secret-1' };
    const s1 = await start({ ...echo, db, seed: 'none', ...creds });
    // What a process killed in the middle of seeding leaves: the marked connector with part of its data.
    const leftover = await createConnector(
      s1.store.db,
      {
        organizationId: s1.organizationId,
        workspaceId: await defaultWorkspaceId(s1),
        definitionId: echoConnector.definition.id,
        name: `Echo Test demo${UNFINISHED_SEED}`,
        credentials: {},
      },
      new Date(),
    );
    await echoDb(s1.store.db)
      .insertInto('echo_things')
      .values({ connector_id: leftover.id, id: '1', label: 'half' })
      .execute();
    await s1.close();
    running.splice(running.indexOf(s1), 1);

    const s2 = await start({ ...echo, db, seed: 'demo', seedSize: 2, ...creds });
    expect(await listThings(s2, await token(s2))).toEqual([{ name: 'Echo Test demo', labels: ['demo 1', 'demo 2'] }]);
    const rows = await echoDb(s2.store.db)
      .selectFrom('echo_things')
      .select('label')
      .where('connector_id', '=', leftover.id)
      .execute();
    expect(rows).toEqual([]);
  });

  it('takes a new secret for a known client id on restart (the operator owns it)', async () => {
    const db = join(tempDir(), 'svc.db');
    const s1 = await start({ db, clientId: 'app', clientSecret: 'old-secret' });
    await s1.close();
    running.splice(running.indexOf(s1), 1);
    const s2 = await start({ db, clientId: 'app', clientSecret: 'new-secret' });
    expect(s2.organizationId).toBe(s1.organizationId);
    await token(s2);
    const old = await fetch(`${s2.url}/api/v1/account/applications/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ client_id: 'app', client_secret: 'old-secret' }),
    });
    expect(old.status).toBe(401);
  });

  it('loads a JSON fixture file with workspaces and connectors', async () => {
    const file = join(tempDir(), 'data.json');
    writeFileSync(
      file,
      JSON.stringify({
        workspaces: [{ name: 'ci' }],
        connectors: [
          { type: 'echo', name: 'mine', workspace: 'ci', data: ['alpha', 'beta'] },
          { type: 'Echo Test', data: ['x'] },
        ],
      }),
    );
    const s = await start({ ...echo, fixtures: file });
    const tok = await token(s);
    expect(await listThings(s, tok, 'ci')).toEqual([{ name: 'mine', labels: ['alpha', 'beta'] }]);
    expect(await listThings(s, tok)).toEqual([{ name: 'Echo Test fixtures', labels: ['x'] }]);
  });

  it('loads a YAML fixture file', async () => {
    const file = join(tempDir(), 'data.yaml');
    writeFileSync(file, 'connectors:\n  - type: echo\n    data: [one, two]\n');
    const s = await start({ ...echo, fixtures: file });
    expect(await listThings(s, await token(s))).toEqual([{ name: 'Echo Test fixtures', labels: ['one', 'two'] }]);
  });

  it('replaces a same-named fixture connector when the fixtures are loaded again', async () => {
    const db = join(tempDir(), 'svc.db');
    const file = join(tempDir(), 'data.json');
    const creds = { clientId: 'a', clientSecret: 'b' };
    writeFileSync(file, JSON.stringify({ connectors: [{ type: 'echo', data: ['v1'] }] }));
    const s1 = await start({ ...echo, db, fixtures: file, ...creds });
    await s1.close();
    running.splice(running.indexOf(s1), 1);
    writeFileSync(file, JSON.stringify({ connectors: [{ type: 'echo', data: ['v2'] }] }));
    const s2 = await start({ ...echo, db, fixtures: file, ...creds });
    expect(await listThings(s2, await token(s2))).toEqual([{ name: 'Echo Test fixtures', labels: ['v2'] }]);
  });

  it('fails whole on a bad fixture file, naming the file and the path', async () => {
    const dir = tempDir();
    const cases: [string, string, RegExp][] = [
      [
        'shape.json',
        JSON.stringify({ connectors: [{ type: 'echo' }], extra: 1 }),
        /shape\.json.*\/connectors\/0 must have required property 'data'/,
      ],
      [
        'type.json',
        JSON.stringify({ connectors: [{ type: 'nosuch', data: [] }] }),
        /type\.json at \/connectors\/0\/type: unknown connector type "nosuch"/,
      ],
      [
        'ws.json',
        JSON.stringify({ connectors: [{ type: 'echo', workspace: 'ghost', data: [] }] }),
        /ws\.json at \/connectors\/0\/workspace/,
      ],
      ['syntax.yaml', 'connectors: [\n', /syntax\.yaml: not valid YAML/],
      ['syntax.json', '{"connectors":', /syntax\.json: not valid JSON/],
      ['missing.json', null as unknown as string, /missing\.json: cannot read the file \(ENOENT\)/],
    ];
    for (const [name, text, re] of cases) {
      const file = join(dir, name);
      if (text !== null) writeFileSync(file, text);
      await expect(startService({ ...echo, fixtures: file }), name).rejects.toThrow(re);
    }
  });

  it('a failing loadFixtures leaves nothing behind', async () => {
    const dir = tempDir();
    const db = join(dir, 'svc.db');
    const file = join(dir, 'bad.json');
    writeFileSync(
      file,
      JSON.stringify({
        workspaces: [{ name: 'new' }],
        connectors: [
          { type: 'echo', workspace: 'new', data: ['ok'] },
          { type: 'echo', data: [1, 2] },
        ],
      }),
    );
    const creds = { clientId: 'a', clientSecret: 'b' };
    await expect(startService({ ...echo, db, fixtures: file, ...creds })).rejects.toThrow(
      /bad\.json at \/connectors\/1\/data: data must be an array of labels/,
    );
    const s = await start({ ...echo, db, ...creds });
    const tok = await token(s);
    expect((await api(s, tok, '/api/v1/workspaces')).json.data.map((w: { name: string }) => w.name)).toEqual([
      'default',
    ]);
    const rows = await s.store.db.selectFrom('connectors').selectAll().execute();
    expect(rows).toEqual([]);
  });
});
