import { execFile } from 'node:child_process';
import { mkdtemp, mkdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, type RunningService } from '../../src/service/start.js';

/**
 * docs/client.md's example, run as a user would: a script importing `recipe` (this package, built), against
 * the embedded service with the CONNECTOR_* variables set.
 */
const run = promisify(execFile);
const repo = resolve(import.meta.dirname, '../..');

let svc: RunningService;
let dir: string;

async function docExample(): Promise<string> {
  const text = await readFile(join(repo, 'docs/client.md'), 'utf8');
  const match = /<!-- client-example -->\n```js\n([\s\S]*?)\n```/.exec(text);
  if (!match?.[1]) throw new Error('docs/client.md has no <!-- client-example --> js block');
  return match[1];
}

beforeAll(async () => {
  svc = await startService({ port: 0, seed: 'demo', seedSize: 120 });
  dir = await mkdtemp(join(tmpdir(), 'client-doc-'));
  await mkdir(join(dir, 'node_modules'));
  await symlink(repo, join(dir, 'node_modules/recipe'));
  await writeFile(join(dir, 'example.mjs'), await docExample());
}, 120_000);
afterAll(async () => {
  await svc?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('docs/client.md', () => {
  it('its example pages every contact of the demo CRM through the exported client', async () => {
    const env = {
      PATH: process.env.PATH,
      CONNECTOR_API_URL: svc.url,
      CONNECTOR_CLIENT_ID: svc.credentials.clientId,
      CONNECTOR_CLIENT_SECRET: svc.credentials.clientSecret,
    };
    const out = await run(process.execPath, [join(dir, 'example.mjs')], { cwd: dir, env });
    const contacts = Number(/^(\d+) contacts$/m.exec(out.stdout)?.[1]);
    expect(out.stdout).toMatch(/doc sections; first: /);
    expect(out.stdout).not.toContain(svc.credentials.clientSecret);
    // The same count the service gives when asked for every contact in one go (its maximum page is larger).
    const all = await countContacts();
    expect(contacts).toBe(all);
    expect(contacts).toBeGreaterThan(50);
  }, 120_000);
});

async function countContacts(): Promise<number> {
  const tokenRes = await fetch(`${svc.url}/api/v1/account/applications/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ client_id: svc.credentials.clientId, client_secret: svc.credentials.clientSecret }),
  });
  const { access_token } = (await tokenRes.json()) as { access_token: string };
  const auth = { authorization: `Bearer ${access_token}`, 'content-type': 'application/json' };
  const list = (await (await fetch(`${svc.url}/api/v1/integrations/connectors`, { headers: auth })).json()) as {
    data: { id: string; summarized_source_template: { name: string } }[];
  };
  const crm = list.data.find((c) => c.summarized_source_template.name === 'CRM');
  if (!crm) throw new Error('no CRM connector');
  let total = 0;
  let after: string | undefined;
  for (;;) {
    const body = { entity: 'contacts', action: 'list', params: { limit: 100, ...(after && { after }) } };
    const res = await fetch(`${svc.url}/api/v1/integrations/connectors/${crm.id}/execute`, {
      method: 'POST',
      headers: auth,
      body: JSON.stringify(body),
    });
    const page = (await res.json()) as { result: unknown[]; connector_metadata: { end_cursor?: string | null } };
    total += page.result.length;
    if (!page.connector_metadata.end_cursor) return total;
    after = page.connector_metadata.end_cursor;
  }
}
