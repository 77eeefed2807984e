import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startConsoleProcess, type ConsoleProcess } from './console-process.js';

/**
 * `recipe console` against hostile requests, as a child process over real sockets (no browser): malformed
 * URLs and request lines get the console's own error shape, recipes outside its folders are named but not
 * drawn, no answer carries an absolute path, and the token redirect never leaves the console.
 */
const repo = new URL('../../', import.meta.url).pathname;
const TOKEN = 'a-long-enough-console-token';

let dir: string;
let outside: string;
let plain: ConsoleProcess;
let guarded: ConsoleProcess;

/** One raw GET with the path sent exactly as given (fetch would normalize `/.//x` first). */
function rawGet(
  base: string,
  path: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; headers: Record<string, unknown>; body: string }> {
  const u = new URL(base);
  return new Promise((resolve, reject) => {
    const req = request({ host: u.hostname, port: u.port, path, headers }, (res) => {
      let body = '';
      res.on('data', (d: Buffer) => (body += d.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

/** Bytes written straight to the socket: what Node's HTTP parser refuses never reaches Fastify. */
function rawBytes(base: string, bytes: string): Promise<string> {
  const u = new URL(base);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(u.port), u.hostname, () => socket.write(bytes));
    let out = '';
    socket.on('data', (d: Buffer) => (out += d.toString()));
    socket.on('close', () => resolve(out));
    socket.on('error', reject);
  });
}

beforeAll(async () => {
  dir = realpathSync(mkdtempSync(join(tmpdir(), 'recipe-console-hard-')));
  outside = realpathSync(mkdtempSync(join(tmpdir(), 'recipe-console-elsewhere-')));
  mkdirSync(join(dir, 'recipes'));
  cpSync(join(repo, 'test/console/fixtures/lib/count.yaml'), join(dir, 'recipes/count.yaml'));
  // A library outside the recipe folders, with a step whose text must not leak into any answer.
  writeFileSync(
    join(outside, 'secret-lib.yaml'),
    'version: 1\nname: secret-lib\nsteps:\n  - id: hidden_step\n    transform: "${ \'hidden-value\' }"\n',
  );
  writeFileSync(
    join(dir, 'recipes/caller.yaml'),
    [
      'version: 1',
      'name: caller',
      'steps:',
      `  - id: inside`,
      `    call: ./count.yaml`,
      `    with: { items: [1, 2] }`,
      `  - id: outside`,
      // Written relative, as a recipe would: the source shown beside the graph then holds no absolute path.
      `    call: ${relative(join(dir, 'recipes'), join(outside, 'secret-lib.yaml'))}`,
      '',
    ].join('\n'),
  );
  mkdirSync(join(outside, 'more'));
  cpSync(join(repo, 'test/console/fixtures/lib/count.yaml'), join(outside, 'more/other.yaml'));
  const service = ['--base-url', 'http://127.0.0.1:9'];
  const env = { CONNECTOR_CLIENT_ID: 'x', CONNECTOR_CLIENT_SECRET: 'y' };
  [plain, guarded] = await Promise.all([
    startConsoleProcess(['--port', '0', '--recipes', 'recipes', '--recipes', join(outside, 'more'), ...service], {
      cwd: dir,
      env,
    }),
    startConsoleProcess(['--port', '0', ...service], { cwd: dir, env: { ...env, RECIPE_CONSOLE_TOKEN: TOKEN } }),
  ]);
}, 60_000);
afterAll(async () => {
  expect(await plain?.stop()).toBe(0);
  expect(await guarded?.stop()).toBe(0);
  rmSync(dir, { recursive: true, force: true });
  rmSync(outside, { recursive: true, force: true });
});

describe('malformed requests', () => {
  it("answer in the console's error shape: a bad percent-encoding, an overlong segment, a broken request line", async () => {
    for (const path of ['/api/runs/%E0%A4%A', '/api/runs/%', '/recipes/%zz', '/api/recipes/graph?ref=%E0%A4%A']) {
      const res = await rawGet(plain.url, path);
      expect(res.status, path).toBeGreaterThanOrEqual(400);
      expect(res.status, path).toBeLessThan(500);
      const body = JSON.parse(res.body) as Record<string, unknown>;
      expect(Object.keys(body).sort(), path).toEqual(['error_code', 'message']);
    }
    const bad = await rawGet(plain.url, '/api/runs/%E0%A4%A');
    expect(bad.status).toBe(400);
    expect(JSON.parse(bad.body)).toEqual({
      message: expect.stringMatching(/percent-encoding/),
      error_code: 'invalid_request',
    });
    const broken = await rawBytes(plain.url, 'GET /x HTTP/1.1\r\nHost: 127.0.0.1\r\nBad Header\r\n\r\n');
    expect(broken).toMatch(/^HTTP\/1\.1 400/);
    expect(JSON.parse(broken.slice(broken.indexOf('\r\n\r\n') + 4))).toMatchObject({ error_code: 'invalid_request' });
  });
});

describe('recipe graphs', () => {
  it('draws a called recipe inside the folders; one outside is named, not drawn', async () => {
    const res = await fetch(`${plain.url}/api/recipes/graph?ref=recipes/caller.yaml`);
    expect(res.status).toBe(200);
    const text = await res.text();
    const graph = JSON.parse(text) as { steps: { id: string; call: Record<string, unknown> }[] };
    expect(graph.steps.map((s) => s.call)).toEqual([
      { file: 'recipes/count.yaml', ref: 'recipes/count.yaml', name: 'count', steps: [expect.anything()] },
      { file: 'secret-lib.yaml', name: 'secret-lib', steps: [] },
    ]);
    expect(text).not.toContain('hidden_step');
    expect(text).not.toContain('hidden-value');
    // The outside library itself cannot be opened either.
    const direct = await fetch(
      `${plain.url}/api/recipes/graph?ref=${encodeURIComponent(join(outside, 'secret-lib.yaml'))}`,
    );
    expect(direct.status).toBe(404);
  });

  it('answers no absolute path of this machine about recipes', async () => {
    for (const path of [
      '/api/recipes',
      '/api/recipes/graph?ref=recipes/caller.yaml',
      '/api/recipes/graph?ref=recipes/count.yaml',
      '/api/recipes/graph?ref=nope.yaml',
    ]) {
      const text = await (await fetch(plain.url + path)).text();
      expect(text, path).not.toContain(dir);
      expect(text, path).not.toContain(outside);
      expect(text, path).not.toMatch(/"\/(tmp|home|Users|var|private)\//);
    }
    const list = (await (await fetch(`${plain.url}/api/recipes`)).json()) as {
      folders: string[];
      recipes: { ref: string }[];
    };
    expect(list.folders).toEqual(['recipes', '…/more']);
    expect(list.recipes.map((r) => r.ref)).toContain('recipes/caller.yaml');
  });
});

describe('the token redirect', () => {
  it('sets the cookie and redirects only to a path on the console itself', async () => {
    const cases: [string, string][] = [
      [`/recipes?token=${TOKEN}&x=1`, '/recipes?x=1'],
      [`/.//evil.example/x?token=${TOKEN}`, '/evil.example/x'],
      [`//evil.example/x?token=${TOKEN}`, '/x'],
      [`/./\\evil.example/x?token=${TOKEN}`, '/evil.example/x'],
      [`/%2F%2Fevil.example?token=${TOKEN}`, '/%2F%2Fevil.example'],
      [`///evil.example?token=${TOKEN}`, '/'],
    ];
    for (const [path, location] of cases) {
      const res = await rawGet(guarded.url, path);
      expect(res.status, path).toBe(303);
      expect(res.headers.location, path).toBe(location);
      expect(new URL(String(res.headers.location), guarded.url).origin, path).toBe(guarded.url);
      expect(String(res.headers['set-cookie'])).toContain('recipe_console_token=');
    }
  });
});

describe('actions behind the token', () => {
  it('need the token and the CSRF proof; the token in the address does not let a POST in', async () => {
    const bearer = { authorization: `Bearer ${TOKEN}` };
    const info = (await (await fetch(`${guarded.url}/api/info`, { headers: bearer })).json()) as {
      actions: { csrf_token: string; redrive_unavailable: string | null };
    };
    expect(info.actions.redrive_unavailable).toMatch(/recipe resume RUN/);
    const json = { 'content-type': 'application/json', 'x-recipe-csrf': info.actions.csrf_token };
    const post = async (path: string, headers: Record<string, string>) => {
      const res = await fetch(`${guarded.url}${path}`, { method: 'POST', headers, body: '{}' });
      return [res.status, ((await res.json()) as { error_code: string }).error_code];
    };
    expect(await post('/api/runs/r1/cancel', json)).toEqual([401, 'unauthorized']);
    expect(await post(`/api/runs/r1/cancel?token=${TOKEN}`, json)).toEqual([401, 'unauthorized']);
    expect(await post('/api/runs/r1/cancel', { ...bearer, 'content-type': 'application/json' })).toEqual([
      403,
      'csrf_token_missing',
    ]);
    expect(await post('/api/runs/r1/cancel', { ...bearer, ...json, origin: 'https://evil.example' })).toEqual([
      403,
      'cross_site_request',
    ]);
    // With both it reaches the journal: there is none here, and none is made.
    expect(await post('/api/runs/r1/cancel', { ...bearer, ...json })).toEqual([404, 'not_found']);
    expect(existsSync(join(dir, '.recipe'))).toBe(false);
    expect(await post('/api/runs/r1/redrive', { ...bearer, ...json })).toEqual([409, 'action_unavailable']);
    expect(await post('/api/schedules/nightly/pause', { ...bearer, ...json })).toEqual([409, 'action_unavailable']);
    // A submit goes to a fleet: on a local journal it is refused as a redrive is.
    const submitted = await fetch(`${guarded.url}/api/runs`, {
      method: 'POST',
      headers: { ...bearer, ...json },
      body: JSON.stringify({ recipe: 'recipes/count.yaml', inputs: { items: [1] } }),
    });
    expect([submitted.status, ((await submitted.json()) as { message: string }).message]).toEqual([
      409,
      'a submit goes to a fleet: start the console with --redis or --postgres',
    ]);
  });
});

describe('HTTPS (--tls-cert, --tls-key)', () => {
  /** One GET over HTTPS to 127.0.0.1, trusting only `ca` (the test's self-signed certificate, made for localhost). */
  function httpsGet(base: string, path: string, ca: Buffer): Promise<{ status: number; cookie: string }> {
    const u = new URL(base);
    return new Promise((resolve, reject) => {
      const req = httpsRequest({ host: u.hostname, port: u.port, path, ca, servername: 'localhost' }, (res) => {
        res.resume();
        res.on('end', () => resolve({ status: res.statusCode ?? 0, cookie: String(res.headers['set-cookie']) }));
      });
      req.on('error', reject);
      req.end();
    });
  }

  it("serves the console over HTTPS with a Secure token cookie; a key that is not the certificate's exits 3", async () => {
    const tls = join(dir, 'tls');
    mkdirSync(tls);
    // EC keys: made in milliseconds, where RSA 2048 takes most of a second each on a busy machine.
    const makeCert = (name: string) =>
      execFileSync(
        'openssl',
        [
          'req',
          '-x509',
          '-newkey',
          'ec',
          '-pkeyopt',
          'ec_paramgen_curve:prime256v1',
          '-nodes',
          '-subj',
          '/CN=localhost',
        ].concat(['-days', '1', '-keyout', join(tls, `${name}.key`), '-out', join(tls, `${name}.crt`)]),
        { stdio: 'ignore' },
      );
    makeCert('a');
    makeCert('b');
    const secure = await startConsoleProcess(
      [
        '--host',
        '127.0.0.1',
        '--port',
        '0',
        '--token',
        TOKEN,
        '--tls-cert',
        'tls/a.crt',
        '--tls-key',
        'tls/a.key',
        '--base-url',
        'http://127.0.0.1:9',
      ],
      { cwd: dir, env: { CONNECTOR_CLIENT_ID: 'x', CONNECTOR_CLIENT_SECRET: 'y' } },
    );
    try {
      expect(secure.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
      const res = await httpsGet(secure.url, `/recipes?token=${TOKEN}`, readFileSync(join(tls, 'a.crt')));
      expect(res.status).toBe(303);
      expect(res.cookie).toMatch(/^recipe_console_token=[^;]+; /);
      for (const attribute of ['Secure', 'HttpOnly', 'SameSite=Strict']) expect(res.cookie).toContain(attribute);
      expect((await httpsGet(secure.url, '/api/info', readFileSync(join(tls, 'a.crt')))).status).toBe(401);
    } finally {
      expect(await secure.stop()).toBe(0);
    }
    // Plain HTTP: no Secure, unless a proxy in front says the browser came over HTTPS.
    expect(String((await rawGet(guarded.url, `/?token=${TOKEN}`)).headers['set-cookie'])).not.toContain('Secure');
    const proxied = await rawGet(guarded.url, `/?token=${TOKEN}`, { 'x-forwarded-proto': 'https' });
    expect(String(proxied.headers['set-cookie'])).toContain('; Secure');

    const refused = spawnSync(
      process.execPath,
      [
        join(repo, 'bin/recipe.js'),
        'console',
        '--port',
        '0',
        '--token',
        TOKEN,
        '--tls-cert',
        'tls/a.crt',
        '--tls-key',
        'tls/b.key',
      ],
      { cwd: dir, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } },
    );
    expect(refused.status).toBe(3);
    expect(refused.stderr).toContain('--tls-key tls/b.key does not fit --tls-cert tls/a.crt');
    expect(refused.stderr).not.toMatch(/\n\s+at /);
  });
});
