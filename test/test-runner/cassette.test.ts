import { spawn, type ChildProcess } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, copyRecipes, recipe } from './helpers.js';

/**
 * --record against a real `recipe serve` child standing in for the live service, then replay offline, then a
 * recipe that asks for a call the cassette does not hold.
 */
const CLIENT_ID = 'live-app';
const CLIENT_SECRET = 'live-client-secret-0123456789';
const API_TOKEN = 'crm-token-value-that-must-not-leak';

let serve: ChildProcess;
let url: string;
let dir: string;

beforeAll(async () => {
  dir = copyRecipes();
  serve = spawn(
    process.execPath,
    [
      BIN,
      'serve',
      '--db',
      ':memory:',
      '--port',
      '0',
      '--seed',
      'none',
      '--fixtures',
      path.join(dir, 'crm-small.fixtures.yaml'),
      '--client-id',
      CLIENT_ID,
      '--client-secret',
      CLIENT_SECRET,
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  url = await new Promise<string>((resolve, reject) => {
    let out = '';
    serve.stdout?.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /listening on (\S+)/.exec(out);
      if (m?.[1]) resolve(m[1]);
    });
    serve.on('exit', (code) => reject(new Error(`recipe serve exited ${code}`)));
  });
  // A recipe that sends its secret in a write, to show the cassette scrubs it.
  writeFileSync(
    path.join(dir, 'note-deals.yaml'),
    `version: 1
name: note-deals
secrets: [CRM_API_TOKEN]
connector: { definition: CRM }
steps:
  - id: deals
    paginate: { entity: deals, action: list, params: { limit: 100, properties: "dealname" } }
  - id: note
    execute:
      entity: notes
      action: create
      params: { properties: { hs_note_body: "\${ $count($deals) } deals (token \${ $secrets.CRM_API_TOKEN })" } }
outputs:
  deals: "\${ $count($deals) }"
`,
  );
  writeFileSync(
    path.join(dir, 'note-deals.test.yaml'),
    `recipe: note-deals.yaml
cases:
  - name: notes the number of deals
    cassette: cassettes/note-deals.json
    secrets: { CRM_API_TOKEN: placeholder }
    now: "2026-03-01T09:00:00Z"
    expect:
      outputs: { deals: 6 }
      writes:
        - { entity: notes, action: create, params: { properties: { hs_note_body: "6 deals (token ***)" } } }
`,
  );
});

afterAll(() => {
  serve?.kill('SIGTERM');
});

describe('cassettes with http steps', () => {
  let hook: Server;
  let hookUrl: string;
  let connections = 0;
  const bodies: string[] = [];
  const testFile = () => path.join(dir, 'post-deals.test.yaml');
  const cassette = () => path.join(dir, 'cassettes', 'post-deals.json');

  beforeAll(async () => {
    hook = createServer((req, res) => {
      let body = '';
      req.on('data', (d: Buffer) => (body += d.toString()));
      req.on('end', () => {
        bodies.push(`${req.method} ${req.url} ${body}`);
        if (req.method === 'GET') res.writeHead(200, { 'content-type': 'text/plain' }).end('all good');
        else res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
      });
    });
    hook.on('connection', () => connections++);
    await new Promise<void>((resolve) => hook.listen(0, '127.0.0.1', resolve));
    hookUrl = `http://127.0.0.1:${(hook.address() as AddressInfo).port}`;
    writeFileSync(
      path.join(dir, 'post-deals.yaml'),
      `version: 1
name: post-deals
connector: { definition: CRM }
steps:
  - id: deals
    paginate: { entity: deals, action: list, params: { limit: 100, properties: "dealname" } }
  - id: health
    http: { url: "${hookUrl}/health" }
  - id: posted
    http: { method: POST, url: "${hookUrl}/hooks/deals?channel=ops", json: { deals: "\${ $count($deals) }" } }
outputs:
  ok: "\${ $posted.ok }"
  health: "\${ $health }"
`,
    );
    writeFileSync(
      testFile(),
      `recipe: post-deals.yaml
cases:
  - name: posts the number of deals
    cassette: cassettes/post-deals.json
    now: "2026-03-01T09:00:00Z"
    expect:
      outputs: { ok: true, health: all good }
      writes: [{ http: { method: POST, url: "${hookUrl}/hooks/deals?channel=ops", body: { deals: 6 } } }]
`,
    );
  });

  afterAll(() => new Promise<void>((resolve) => hook.close(() => resolve())));

  it('--record --allow-network records the http exchanges with their URL; the replay opens no connection', async () => {
    const recorded = await recipe(['test', testFile(), '--record', '--allow-network'], {
      cwd: path.dirname(dir),
      env: { CONNECTOR_API_URL: url, CONNECTOR_CLIENT_ID: CLIENT_ID, CONNECTOR_CLIENT_SECRET: CLIENT_SECRET },
    });
    expect(recorded.stderr).toBe('');
    expect(recorded.code).toBe(0);
    expect(bodies).toEqual(['GET /health ', 'POST /hooks/deals?channel=ops {"deals":6}']);
    const json = JSON.parse(readFileSync(cassette(), 'utf8')) as {
      interactions: { request: { method: string; url?: string; body?: unknown }; response: { status: number } }[];
    };
    expect(json.interactions.filter((i) => i.request.url !== undefined).map((i) => i.request)).toEqual([
      { method: 'GET', path: '/health', url: `${hookUrl}/health` },
      {
        method: 'POST',
        path: '/hooks/deals?channel=ops',
        url: `${hookUrl}/hooks/deals?channel=ops`,
        body: { deals: 6 },
      },
    ]);

    const before = connections;
    const replayed = await recipe(['test', testFile()], { cwd: path.dirname(dir) });
    expect(replayed.stderr).toBe('');
    expect(replayed.stdout).toContain('✓ posts the number of deals');
    expect(replayed.code).toBe(0);
    expect(connections).toBe(before);

    // A body the cassette does not hold is a miss, not a request out.
    writeFileSync(
      path.join(dir, 'post-deals.yaml'),
      readFileSync(path.join(dir, 'post-deals.yaml'), 'utf8').replace('deals: "', 'n: "'),
    );
    const missed = await recipe(['test', testFile()], { cwd: path.dirname(dir) });
    expect(missed.code).toBe(1);
    expect(missed.stdout).toContain(
      `the recipe asked for a call the cassette does not hold: POST ${hookUrl}/hooks/deals?channel=ops`,
    );
    expect(connections).toBe(before);
  });
});

describe('cassettes', () => {
  const testFile = () => path.join(dir, 'note-deals.test.yaml');
  const cassette = () => path.join(dir, 'cassettes', 'note-deals.json');

  it('--record runs the case against the live service and stores a cassette with no secret or token in it', async () => {
    const res = await recipe(['test', testFile(), '--record'], {
      cwd: path.dirname(dir),
      env: {
        CONNECTOR_API_URL: url,
        CONNECTOR_CLIENT_ID: CLIENT_ID,
        CONNECTOR_CLIENT_SECRET: CLIENT_SECRET,
        CRM_API_TOKEN: API_TOKEN,
      },
    });
    expect(res.stderr).toBe('');
    expect(res.code).toBe(0);
    expect(existsSync(cassette())).toBe(true);
    const text = readFileSync(cassette(), 'utf8');
    expect(text).not.toContain(API_TOKEN);
    expect(text).not.toContain(CLIENT_SECRET);
    expect(text).not.toMatch(/eyJ[\w-]+\.[\w-]+\./); // no JWT
    const json = JSON.parse(text) as { interactions: { request: { path: string; body?: { entity?: string } } }[] };
    expect(
      json.interactions.map((i) => i.request.body?.entity ?? i.request.path.split('?')[0]?.split('/').pop()),
    ).toEqual(['token', 'sources', 'connectors', 'deals', 'notes']);
  });

  it('replays the cassette offline (no service configured, nothing listening)', async () => {
    serve.kill('SIGTERM');
    const res = await recipe(['test', testFile()], { cwd: path.dirname(dir) });
    expect(res.stderr).toBe('');
    expect(res.code).toBe(0);
    expect(res.stdout).toContain('✓ notes the number of deals');
  });

  it('fails clearly when the recipe asks for a call the cassette does not hold', async () => {
    const file = path.join(dir, 'note-deals.yaml');
    writeFileSync(file, readFileSync(file, 'utf8').replace('limit: 100', 'limit: 50'));
    const res = await recipe(['test', testFile()], { cwd: path.dirname(dir) });
    expect(res.code).toBe(1);
    expect(res.stdout).toContain(
      'cassette at recipes/note-deals.test.yaml:4:15\n        the recipe asked for a call the cassette does not hold: execute deals.list {"limit":50,"properties":"dealname"}',
    );
  });
});
