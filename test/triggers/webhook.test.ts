import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openJournalReader } from '../../src/journal/index.js';
import { signatureHeader, verifySignature } from '../../src/triggers/signature.js';
import { runCli } from '../cli/cli-process.js';
import { startServerProcess, type ServerProcess } from './triggers-process.js';

const root = new URL('../..', import.meta.url).pathname;
const SECRET = 'whsec_test_0123456789abcdef';
const CB_SECRET = 'cbsec_test_0123456789abcdef';

let dir: string;
let server: ServerProcess;
let receiver: Server;
let receiverUrl: string;
const received: { headers: IncomingMessage['headers']; body: string; answered: number }[] = [];

function sign(body: string, at = Math.floor(Date.now() / 1000)): string {
  return signatureHeader(SECRET, at, body);
}

async function deliver(
  name: string,
  body: string,
  headers: Record<string, string> = {},
  query = '',
): Promise<{ status: number; json: Record<string, unknown> }> {
  const res = await fetch(`${server.url}/hooks/${name}${query}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body,
  });
  return { status: res.status, json: (await res.json()) as Record<string, unknown> };
}

async function runsOf(trigger: string): Promise<{ run_id: string; origin: unknown }[]> {
  const journal = openJournalReader(join(dir, 'runs.db'));
  try {
    const runs = await journal.listRuns({ limit: 1000 });
    const out: { run_id: string; origin: unknown }[] = [];
    for (const r of runs) {
      const record = await journal.getRun(r.run_id);
      const origin = record?.options.origin as { trigger?: string } | undefined;
      if (origin?.trigger === trigger) out.push({ run_id: r.run_id, origin });
    }
    return out;
  } finally {
    await journal.close();
  }
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'recipe-triggers-'));
  // A receiver of result callbacks that answers 503 to the first attempt of each delivery, then 200.
  const seen = new Set<string>();
  receiver = createServer((req, res) => {
    let body = '';
    req.on('data', (d: Buffer) => (body += d.toString()));
    req.on('end', () => {
      const id = String(req.headers['x-delivery-id']);
      const answered = seen.has(id) ? 200 : 503;
      seen.add(id);
      received.push({ headers: req.headers, body, answered });
      res.writeHead(answered).end();
    });
  });
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
  const addr = receiver.address() as { port: number };
  receiverUrl = `http://127.0.0.1:${addr.port}/results`;
  mkdirSync(join(dir, 'triggers'));
  const recipe = join(root, 'recipes/pipeline-report.yaml');
  writeFileSync(
    join(dir, 'triggers/deal-event.yaml'),
    `recipe: ${recipe}
signature: { secret_env: DEAL_HOOK_SECRET }
payload:
  type: object
  required: [pipeline]
  properties:
    pipeline: { type: string, minLength: 1 }
inputs:
  pipeline: "\${ $payload.pipeline }"
callback: { url: ${receiverUrl}, secret_env: CALLBACK_SECRET }
`,
  );
  writeFileSync(
    join(dir, 'triggers/open-hook.yaml'),
    `name: open-hook
recipe: ${recipe}
signature: none
`,
  );
  server = await startServerProcess(
    [
      'triggers',
      '--port',
      '0',
      '--fixtures',
      join(root, 'recipes/crm-small.fixtures.yaml'),
      '--journal',
      join(dir, 'runs.db'),
    ],
    'triggers',
    { cwd: dir, env: { DEAL_HOOK_SECRET: SECRET, CALLBACK_SECRET: CB_SECRET } },
  );
}, 180_000);

afterAll(async () => {
  await server?.stop();
  await new Promise<void>((r) => receiver?.close(() => r()));
  rmSync(dir, { recursive: true, force: true });
});

describe('recipe triggers: POST /hooks/{name}', { timeout: 240_000 }, () => {
  it('a signed delivery starts one run, journaled with its origin, and ?wait answers its report', async () => {
    const body = JSON.stringify({ pipeline: 'default' });
    const res = await deliver(
      'deal-event',
      body,
      { 'x-recipe-signature': sign(body), 'x-delivery-id': 'd-1' },
      '?wait=120s',
    );
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({
      trigger: 'deal-event',
      delivery_id: 'd-1',
      duplicate: false,
      status: 'succeeded',
    });
    expect((res.json.report as { status: string }).status).toBe('ok');
    const runs = await runsOf('deal-event');
    expect(runs.filter((r) => (r.origin as { delivery_id: string }).delivery_id === 'd-1')).toEqual([
      { run_id: res.json.run_id, origin: { kind: 'trigger', trigger: 'deal-event', delivery_id: 'd-1' } },
    ]);
    // `recipe runs show` says where the run came from.
    const runId = String(res.json.run_id);
    const shown = await runCli(['runs', 'show', runId, '--journal', join(dir, 'runs.db')], { cwd: dir });
    expect(shown.stdout).toContain('started by trigger deal-event (delivery d-1)');
    const json = await runCli(['runs', 'show', runId, '--json', '--journal', join(dir, 'runs.db')], { cwd: dir });
    expect(JSON.parse(json.stdout)).toMatchObject({ run_id: runId, origin: { kind: 'trigger', delivery_id: 'd-1' } });
  });

  it('the same delivery sent 3 times, also concurrently, starts 1 run and answers its run id each time', async () => {
    const body = JSON.stringify({ pipeline: 'default', n: 2 });
    const headers = { 'x-recipe-signature': sign(body), 'x-delivery-id': 'd-2' };
    const answers = await Promise.all([deliver('deal-event', body, headers), deliver('deal-event', body, headers)]);
    const third = await deliver('deal-event', body, headers, '?wait=120s');
    const ids = new Set([...answers, third].map((a) => a.json.run_id));
    expect(ids.size).toBe(1);
    expect([...answers, third].filter((a) => a.json.duplicate === false)).toHaveLength(1);
    expect(third.status).toBe(200);
    const runs = await runsOf('deal-event');
    expect(runs.filter((r) => (r.origin as { delivery_id: string }).delivery_id === 'd-2')).toHaveLength(1);
  });

  it('without X-Delivery-Id, the SHA-256 of the body is the delivery id', async () => {
    const body = JSON.stringify({ pipeline: 'default', n: 3 });
    const a = await deliver('deal-event', body, { 'x-recipe-signature': sign(body) }, '?wait=120s');
    const b = await deliver('deal-event', body, { 'x-recipe-signature': sign(body) });
    expect(a.json.delivery_id).toMatch(/^[0-9a-f]{64}$/);
    expect(b.json).toMatchObject({ run_id: a.json.run_id, duplicate: true, status: 'succeeded' });
  });

  it('refuses a bad signature, a stale timestamp, an unknown trigger and an invalid payload, starting nothing', async () => {
    const before = (await runsOf('deal-event')).length;
    const body = JSON.stringify({ pipeline: 'default' });
    const bad = await deliver('deal-event', body, {
      'x-recipe-signature': signatureHeader('not-the-secret', Math.floor(Date.now() / 1000), body),
    });
    expect(bad).toMatchObject({ status: 401, json: { code: 'G010', error_code: 'bad_signature' } });
    const missing = await deliver('deal-event', body);
    expect(missing).toMatchObject({ status: 401, json: { code: 'G011', error_code: 'missing_signature' } });
    const stale = await deliver('deal-event', body, {
      'x-recipe-signature': sign(body, Math.floor(Date.now() / 1000) - 3600),
    });
    expect(stale).toMatchObject({ status: 401, json: { code: 'G012', error_code: 'stale_timestamp' } });
    const unknown = await deliver('no-such-trigger', body, { 'x-recipe-signature': sign(body) });
    expect(unknown).toMatchObject({ status: 404, json: { code: 'G001', error_code: 'unknown_trigger' } });
    const wrongType = JSON.stringify({ pipeline: 42 });
    const invalid = await deliver('deal-event', wrongType, { 'x-recipe-signature': sign(wrongType) });
    expect(invalid).toMatchObject({
      status: 422,
      json: { code: 'G014', error_code: 'invalid_payload', field: '/pipeline' },
    });
    const empty = JSON.stringify({});
    const required = await deliver('deal-event', empty, { 'x-recipe-signature': sign(empty) });
    expect(required).toMatchObject({ status: 422, json: { code: 'G014', field: '/pipeline' } });
    const notJson = '{"pipeline":';
    const malformed = await deliver('deal-event', notJson, { 'x-recipe-signature': sign(notJson) });
    expect(malformed).toMatchObject({ status: 400, json: { code: 'G013', error_code: 'malformed_payload' } });
    const huge = JSON.stringify({ pipeline: 'x'.repeat(70_000) });
    const tooLarge = await deliver('deal-event', huge, { 'x-recipe-signature': sign(huge) });
    expect(tooLarge).toMatchObject({ status: 413, json: { code: 'G016', error_code: 'payload_too_large' } });
    expect(await runsOf('deal-event')).toHaveLength(before);
  });

  it('an unsigned trigger runs only because its file says signature: none', async () => {
    const res = await deliver('open-hook', '{}', {}, '?wait=120s');
    expect(res).toMatchObject({ status: 200, json: { trigger: 'open-hook', status: 'succeeded' } });
  });

  it('posts the report to the callback URL, signed, and retries after a 503', async () => {
    // Every signed delivery above has a callback; each was answered 503 first, then delivered.
    const deadline = Date.now() + 100_000;
    while (!received.some((r) => r.answered === 200) && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 100));
    const delivered = received.find((r) => r.answered === 200);
    expect(delivered).toBeDefined();
    const id = String(delivered!.headers['x-delivery-id']);
    const attempts = received.filter((r) => r.headers['x-delivery-id'] === id);
    expect(attempts.map((a) => a.answered)).toEqual([503, 200]);
    const check = verifySignature(
      String(delivered!.headers['x-recipe-signature']),
      CB_SECRET,
      Buffer.from(delivered!.body),
      Math.floor(Date.now() / 1000),
    );
    expect(check).toEqual({ ok: true });
    const report = JSON.parse(delivered!.body) as { run_id: string; status: string };
    expect(id).toBe(`run-${report.run_id}`);
    expect(report.status).toBe('ok');
  });
});
