import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { abortableSleep, type ConnectorClient } from '../../src/client/index.js';
import { runYaml, tempDir, testClient } from './helpers.js';
import { reply, startWebhookServer, type WebhookServer } from './webhook-server.js';

/** The http step (issue 12 point 3) through the real client against a local HTTP server. */
let hook: WebhookServer;
let client: ConnectorClient;
let sleeps: number[];

beforeAll(async () => {
  hook = await startWebhookServer();
});
afterAll(async () => {
  await client?.close();
  await hook.close();
});
beforeEach(async () => {
  hook.received = [];
  hook.answer = (_req, res) => reply(res, 200, { ok: true });
  sleeps = [];
  await client?.close();
  // The connector base URL is never used by http steps; sleeps are recorded, not waited.
  client = testClient(
    'http://127.0.0.1:9',
    { clientId: 'id', clientSecret: 'client-secret-1' },
    { deps: { sleep: async (ms) => void sleeps.push(ms) } },
  );
});

const recipe = (steps: string, head = ''): string => `version: 1\nname: t\n${head}steps:\n${steps}`;

describe('http step', () => {
  it('sends method, query, headers and a JSON body; the parsed answer is the output, $response the rest', async () => {
    hook.answer = (_req, res) => reply(res, 201, { id: 7, ok: true }, { 'x-request-id': 'r-1' });
    const { report } = await runYaml(
      tempDir(),
      recipe(
        `  - id: posted
    http:
      method: POST
      url: "${hook.url}/hooks/deal?src=recipe"
      query: { n: "\${ 1 + 1 }", tags: [a, b], skip: null }
      headers: { X-Team: sales, Content-Type: application/json; charset=utf-8 }
      json: { text: "deal \${ $inputs.name } won", amount: 1200 }
    assign: { status: "\${ $response.status }", request_id: "\${ $response.headers.\`x-request-id\` }" }
outputs:
  posted: "\${ $posted }"
  status: "\${ $status }"
  request_id: "\${ $request_id }"
`,
        'inputs:\n  name: { type: string, default: Acme }\n',
      ),
      client,
    );
    expect(report.status).toBe('ok');
    expect(report.outputs).toEqual({ posted: { id: 7, ok: true }, status: 201, request_id: 'r-1' });
    expect(hook.received).toHaveLength(1);
    const req = hook.received[0]!;
    expect(req.method).toBe('POST');
    expect(req.path).toBe('/hooks/deal?src=recipe&n=2&tags=a&tags=b');
    expect(req.headers['x-team']).toBe('sales');
    expect(req.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(JSON.parse(req.body)).toEqual({ text: 'deal Acme won', amount: 1200 });
    expect(report.requests).toBe(1);
  });

  it('parses the answer by content type: text stays text, an empty body is null; a text body is sent as text', async () => {
    hook.answer = (req, res) => (req.method === 'PUT' ? reply(res, 204, '') : reply(res, 200, 'plain words'));
    const { report } = await runYaml(
      tempDir(),
      recipe(`  - id: got
    http: { url: "${hook.url}/text" }
  - id: put
    http: { method: PUT, url: "${hook.url}/doc", body: "hello \${ $got }" }
outputs:
  got: "\${ $got }"
  put: "\${ $put = null }"
`),
      client,
    );
    expect(report.outputs).toEqual({ got: 'plain words', put: true });
    expect(hook.received[1]).toMatchObject({ method: 'PUT', body: 'hello plain words' });
    expect(hook.received[1]!.headers['content-type']).toBe('text/plain; charset=utf-8');
  });

  it('retries a 503 after the delay its Retry-After asks for, like execute', async () => {
    let calls = 0;
    hook.answer = (_req, res) =>
      ++calls === 1 ? reply(res, 503, { message: 'busy' }, { 'retry-after': '2' }) : reply(res, 200, { ok: true });
    const { report } = await runYaml(tempDir(), recipe(`  - http: { url: "${hook.url}/flaky" }\n`), client);
    expect(report.status).toBe('ok');
    expect(hook.received).toHaveLength(2);
    expect(sleeps).toEqual([2000]);
    expect(report.retries).toBe(1);
  });

  it('does not repeat a POST after a 503 (it may have happened); a 429 is repeated', async () => {
    hook.answer = (_req, res) => reply(res, 503, { message: 'busy' });
    const failed = await runYaml(
      tempDir(),
      recipe(`  - http: { method: POST, url: "${hook.url}/p", json: {} }\n`),
      client,
    );
    expect(failed.report.error).toMatchObject({ code: 'C013', status: 503 });
    expect(hook.received).toHaveLength(1);
    let calls = 0;
    hook.answer = (_req, res) => (++calls === 1 ? reply(res, 429, 'slow down') : reply(res, 200, { ok: true }));
    const ok = await runYaml(tempDir(), recipe(`  - http: { method: POST, url: "${hook.url}/p", json: {} }\n`), client);
    expect(ok.report.status).toBe('ok');
  });

  it('fails with C013 on a status outside success_status (no retry of a 500); success_status widens it', async () => {
    hook.answer = (req, res) => (req.path === '/missing' ? reply(res, 404, 'no such thing') : reply(res, 500, 'boom'));
    const { report } = await runYaml(
      tempDir(),
      recipe(`  - id: broken
    http: { url: "${hook.url}/x" }
    on_error: continue
  - id: missing
    http: { url: "${hook.url}/missing", success_status: [2xx, 404] }
    assign: { status: "\${ $response.status }" }
outputs:
  broken: "\${ $broken }"
  status: "\${ $status }"
`),
      client,
    );
    expect(report.outputs).toEqual({
      broken: { error: { code: 'C013', status: 500, message: `http GET ${hook.url}/x: HTTP 500: boom` } },
      status: 404,
    });
    expect(hook.received.filter((r) => r.path === '/x')).toHaveLength(1);
  });

  it('refuses a host outside http.allow before sending, also for a called recipe', async () => {
    const dir = tempDir();
    const refused = await runYaml(
      dir,
      recipe(
        `  - http: { method: POST, url: "${hook.url}/x", json: { secret: data } }\n`,
        'http: { allow: [hooks.example.com, "*.example.org"] }\n',
      ),
      client,
    );
    expect(refused.report.error).toMatchObject({ code: 'X016', line: 5 });
    expect(refused.report.error!.message).toBe(
      `http POST: the host 127.0.0.1:${hook.port} is not in the recipe's http.allow list (hooks.example.com, *.example.org)`,
    );
    const allowed = await runYaml(
      dir,
      recipe(`  - http: { url: "${hook.url}/x" }\n`, `http: { allow: ["127.0.0.1:${hook.port}"] }\n`),
      client,
    );
    expect(allowed.report.status).toBe('ok');
    // A library recipe without an allow list, called from a recipe with one, is held to the caller's list.
    const called = await runYaml(
      dir,
      recipe(`  - call: ./lib/notify.yaml\n`, 'http: { allow: [hooks.example.com] }\n'),
      client,
      { files: { 'lib/notify.yaml': recipe(`  - http: { method: POST, url: "${hook.url}/lib", body: hi }\n`) } },
    );
    expect(called.report.error).toMatchObject({ code: 'X016' });
    expect(hook.received.map((r) => r.path)).toEqual(['/x']);
  });

  it('--dry-run lists a POST with its request and does not send it; a GET is still sent', async () => {
    const { report } = await runYaml(
      tempDir(),
      recipe(`  - id: read
    http: { url: "${hook.url}/read" }
  - id: notify
    http: { method: POST, url: "${hook.url}/notify", json: { text: "n=\${ $read.ok }" } }
outputs:
  notify: "\${ $notify }"
`),
      client,
      { dryRun: true },
    );
    expect(report.status).toBe('ok');
    expect(hook.received.map((r) => `${r.method} ${r.path}`)).toEqual(['GET /read']);
    expect(report.outputs.notify).toEqual({ dry_run: true, id: 'dry-run-1' });
    expect(report.dry_run_writes).toEqual([
      {
        step: 'notify',
        line: 6,
        file: expect.stringMatching(/main\.yaml$/),
        column: 5,
        kind: 'http',
        method: 'POST',
        url: `${hook.url}/notify`,
        headers: { 'content-type': 'application/json' },
        body: { text: 'n=true' },
      },
    ]);
  });

  it('masks a secret used in a header, the URL or the body wherever it shows: report, errors, logs, dry-run', async () => {
    const token = 'hook-token-8f3a1c';
    const env = { HOOK_TOKEN: token };
    hook.answer = (req, res) => reply(res, 401, `bad token ${String(req.headers.authorization)}`);
    const steps = `  - id: call
    http:
      method: POST
      url: "${hook.url}/t/\${ $secrets.HOOK_TOKEN }"
      headers: { Authorization: "Bearer \${ $secrets.HOOK_TOKEN }" }
      json: { token: "\${ $secrets.HOOK_TOKEN }" }
`;
    const real = await runYaml(tempDir(), recipe(steps, 'secrets: [HOOK_TOKEN]\n'), client, {
      env,
      verbose: true,
    } as never);
    expect(hook.received[0]!.headers.authorization).toBe(`Bearer ${token}`);
    expect(real.report.error).toMatchObject({ code: 'C013', status: 401 });
    expect(real.report.error!.message).toBe(`http POST ${hook.url}/t/***: HTTP 401: bad token Bearer ***`);
    const dry = await runYaml(tempDir(), recipe(steps, 'secrets: [HOOK_TOKEN]\n'), client, { env, dryRun: true });
    expect(dry.report.dry_run_writes?.[0]).toMatchObject({
      headers: { authorization: 'Bearer ***' },
      body: { token: '***' },
    });
    for (const r of [real, dry]) expect(JSON.stringify(r.report) + r.logs.join('\n')).not.toContain(token);
  });

  it('bounds the request with timeout_ms', async () => {
    hook.answer = () => undefined; // never answers
    const { report } = await runYaml(
      tempDir(),
      recipe(`  - http: { url: "${hook.url}/slow" }\n    timeout_ms: 150\n    retry: { max_attempts: 1 }\n`),
      client,
      { sleep: abortableSleep },
    );
    expect(report.status).toBe('failed');
    expect(['C007', 'X005']).toContain(report.error?.code);
  });

  it('refuses a URL that is not absolute http(s)', async () => {
    const { report } = await runYaml(tempDir(), recipe(`  - http: { url: "file:///etc/passwd" }\n`), client);
    expect(report.error).toMatchObject({ code: 'X007' });
    expect(report.error!.message).toContain('http url must be an absolute http or https URL');
  });
});
