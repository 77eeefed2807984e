import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_SEED_SIZE } from '../../../src/service/seed/demo.js';
import { ensureBuilt, recipeBin } from '../support/build.js';

/**
 * The acceptance path, the way a user does it with curl: `recipe serve` on a fresh directory
 * (demo seed by default), take a token, find the CRM connector by workspace and definition, and page
 * through every contact with params.after.
 */
let child: ChildProcess;
let url: string;
let cwd: string;

beforeAll(async () => {
  ensureBuilt();
  cwd = mkdtempSync(join(tmpdir(), 'recipe-demo-'));
  child = spawn(process.execPath, [recipeBin, 'serve', '--port', '0'], {
    cwd,
    env: { ...process.env, CONNECTOR_CLIENT_ID: '', CONNECTOR_CLIENT_SECRET: '' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let err = '';
  child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
  url = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /^listening on (\S+)\n/m.exec(out);
      if (m) resolve(m[1]!);
    });
    child.on('exit', (code) => reject(new Error(`serve exited ${code}: ${err}`)));
  });
}, 120_000);

afterAll(async () => {
  if (child.exitCode === null) {
    child.kill('SIGTERM');
    await new Promise((r) => child.on('exit', r));
  }
  rmSync(cwd, { recursive: true, force: true });
});

async function call(path: string, token: string | null, body?: unknown): Promise<any> {
  const res = await fetch(`${url}${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: {
      ...(token && { authorization: `Bearer ${token}` }),
      ...(body !== undefined && { 'content-type': 'application/json' }),
    },
    ...(body !== undefined && { body: JSON.stringify(body) }),
  });
  expect(res.status, path).toBe(200);
  return res.json();
}

describe('recipe serve with the demo CRM', () => {
  it('takes a token, finds the CRM connector, and pages through every contact with params.after', async () => {
    const creds = JSON.parse(readFileSync(join(cwd, '.recipe', 'credentials.json'), 'utf8'));
    const { access_token: token } = await call('/api/v1/account/applications/token', null, {
      client_id: creds.client_id,
      client_secret: creds.client_secret,
    });
    const { definitions } = await call('/api/v1/integrations/definitions/sources?name=crm', token);
    expect(definitions).toHaveLength(1);
    const { data } = await call(
      `/api/v1/integrations/connectors?workspace_name=default&definition_id=${definitions[0].sourceDefinitionId}`,
      token,
    );
    expect(data).toHaveLength(1);
    const ids = new Set<string>();
    let after: string | undefined;
    let pages = 0;
    for (;;) {
      const page = await call(`/api/v1/integrations/connectors/${data[0].id}/execute`, token, {
        entity: 'contacts',
        action: 'list',
        params: { limit: 100, ...(after && { after }) },
      });
      expect(page.status).toBe('success');
      for (const r of page.result) ids.add(r.id);
      pages++;
      if (!page.connector_metadata.has_next_page) break;
      after = page.connector_metadata.end_cursor;
      expect(pages).toBeLessThan(100);
    }
    expect(ids.size).toBe(DEFAULT_SEED_SIZE);
    expect(pages).toBe(Math.ceil(DEFAULT_SEED_SIZE / 100));
  });
});
