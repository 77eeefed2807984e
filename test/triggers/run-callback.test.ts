import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../cli/cli-process.js';
import { verifySignature } from '../../src/triggers/signature.js';

const root = new URL('../..', import.meta.url).pathname;
const SECRET = 'run-callback-secret-0123456789';

let dir: string;
let receiver: Server;
let url: string;
const received: { headers: IncomingMessage['headers']; body: string; answered: number }[] = [];

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'recipe-run-callback-'));
  receiver = createServer((req, res) => {
    let body = '';
    req.on('data', (d: Buffer) => (body += d.toString()));
    req.on('end', () => {
      // The first attempt is answered 503, every later one 200.
      const answered = received.length === 0 ? 503 : 200;
      received.push({ headers: req.headers, body, answered });
      res.writeHead(answered).end();
    });
  });
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
  url = `http://127.0.0.1:${(receiver.address() as { port: number }).port}/hook`;
});

afterAll(async () => {
  await new Promise<void>((r) => receiver?.close(() => r()));
  rmSync(dir, { recursive: true, force: true });
});

describe('recipe run --callback', { timeout: 240_000 }, () => {
  it('posts the signed report when the run ends, retrying after a 503, with one delivery id', async () => {
    const r = await runCli(
      [
        'run',
        join(root, 'recipes/pipeline-report.yaml'),
        '--fixtures',
        join(root, 'recipes/crm-small.fixtures.yaml'),
        '--journal',
        join(dir, 'runs.db'),
        '--json',
        '--callback',
        url,
      ],
      { cwd: dir, env: { RECIPE_CALLBACK_SECRET: SECRET } },
    );
    expect(r.code).toBe(0);
    const report = JSON.parse(r.stdout) as { run_id: string; status: string };
    expect(received.map((x) => x.answered)).toEqual([503, 200]);
    expect(new Set(received.map((x) => x.headers['x-delivery-id']))).toEqual(new Set([`run-${report.run_id}`]));
    const last = received[1]!;
    expect(JSON.parse(last.body)).toMatchObject({ run_id: report.run_id, status: 'ok' });
    expect(
      verifySignature(
        String(last.headers['x-recipe-signature']),
        SECRET,
        Buffer.from(last.body),
        Math.floor(Date.now() / 1000),
      ),
    ).toEqual({ ok: true });
    expect(r.stderr).toContain(`result callback delivered to ${url}`);
    expect(r.stdout + r.stderr).not.toContain(SECRET);
  });

  it('refuses a callback URL that is not http(s) before the run starts', async () => {
    writeFileSync(join(dir, 'x.txt'), '');
    const r = await runCli(
      [
        'run',
        join(root, 'recipes/pipeline-report.yaml'),
        '--fixtures',
        join(root, 'recipes/crm-small.fixtures.yaml'),
        '--callback',
        'file:///etc/passwd',
      ],
      { cwd: dir },
    );
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('G031');
  });
});
