import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt, recipeBin } from '../support/build.js';

// The context store's queued changes survive SIGKILL: each change is written to an outbox in the same
// transaction as the record, and a restarted service applies what the killed one had not.

beforeAll(() => ensureBuilt(), 180_000);

const children: ChildProcess[] = [];
const dirs: string[] = [];
afterEach(() => {
  for (const c of children.splice(0)) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

const creds = ['--client-id', 'crash-client', '--client-secret', 'crash-secret-0123456789abcdef'];

interface Served {
  child: ChildProcess;
  url: string;
  exited: Promise<void>;
}

function serve(db: string, seed: 'demo' | 'none'): Promise<Served> {
  const args = ['serve', '--db', db, '--port', '0', '--seed', seed, '--seed-size', '30', ...creds];
  const child = spawn(process.execPath, [recipeBin, ...args], {
    env: { ...process.env, CONNECTOR_CLIENT_ID: '', CONNECTOR_CLIENT_SECRET: '' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  let out = '';
  let err = '';
  child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
  return new Promise((resolve, reject) => {
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /^listening on (http:\/\/\S+)\n/m.exec(out);
      if (m) resolve({ child, url: m[1]!, exited });
    });
    void exited.then(() => reject(new Error(`serve exited before listening: ${err}`)));
  });
}

async function call(s: Served, method: string, path: string, body?: unknown): Promise<any> {
  const token = await fetch(`${s.url}/api/v1/account/applications/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ client_id: creds[1], client_secret: creds[3] }),
  }).then((r) => r.json() as Promise<{ access_token: string }>);
  const res = await fetch(`${s.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${token.access_token}`, 'content-type': 'application/json' },
    ...(body !== undefined && { body: JSON.stringify(body) }),
  });
  return { status: res.status, body: await res.json() };
}

async function until<T>(what: string, fn: () => Promise<T | undefined>, ms = 30_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (v !== undefined) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function crmReady(s: Served): Promise<string> {
  const list = await call(s, 'GET', '/api/v1/integrations/connectors?workspace_name=default');
  const crm = (list.body.data as { id: string; definition_name: string }[]).find((c) => c.definition_name === 'CRM')!;
  await until('the contacts index', async () => {
    const r = await call(s, 'GET', `/api/v1/integrations/connectors/${crm.id}/inspect`);
    const contacts = r.body.context_store_readiness.configured_cache_entities.find(
      (e: { entity: string }) => e.entity === 'contacts',
    );
    return contacts?.status === 'Ready' ? true : undefined;
  });
  return crm.id;
}

/** What the killed service left on disk: the indexed document of a contact and its outbox rows. */
function onDisk(db: string, contactId: string): { doc: string; outbox: number } {
  const raw = new Database(db);
  try {
    const doc = raw.prepare("SELECT doc FROM cs_docs WHERE entity = 'contacts' AND id = ?").get(contactId) as {
      doc: string;
    };
    const outbox = raw.prepare('SELECT count(*) AS n FROM cs_outbox WHERE record_id = ?').get(contactId) as {
      n: number;
    };
    return { doc: doc.doc, outbox: outbox.n };
  } finally {
    raw.close();
  }
}

describe('context store after SIGKILL', () => {
  it('indexes a change made right before the kill once the service is back', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'recipe-crash-'));
    dirs.push(dir);
    const db = join(dir, 'service.db');
    let changed: { id: string; value: string } | undefined;
    // The indexer applies changes every 50 ms: the kill follows the write's response at once, so the
    // change is almost always still queued. Should the indexer win the race, the write is made again.
    for (let attempt = 1; attempt <= 5 && !changed; attempt++) {
      const s = await serve(db, attempt === 1 ? 'demo' : 'none');
      const crm = await crmReady(s);
      const execute = `/api/v1/integrations/connectors/${crm}/execute`;
      const first = await call(s, 'POST', execute, { entity: 'contacts', action: 'list', params: { limit: 1 } });
      const id = String(first.body.result[0].id);
      const value = `Crashtest${attempt}x${Date.now()}`;
      const token = await fetch(`${s.url}/api/v1/account/applications/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ client_id: creds[1], client_secret: creds[3] }),
      }).then((r) => r.json() as Promise<{ access_token: string }>);
      const res = await fetch(`${s.url}${execute}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token.access_token}`, 'content-type': 'application/json' },
        body: JSON.stringify({
          entity: 'contacts',
          action: 'update',
          params: { contactId: id, properties: { firstname: value } },
        }),
      });
      s.child.kill('SIGKILL');
      await s.exited;
      expect(res.status).toBe(200);
      const left = onDisk(db, id);
      if (!left.doc.includes(value)) {
        // Stale index, and the outbox holds the change: exactly what a crash used to lose.
        expect(left.outbox).toBeGreaterThan(0);
        changed = { id, value };
      }
    }
    expect(changed, 'the indexer beat the kill five times').toBeDefined();

    const back = await serve(db, 'none');
    const crm = await crmReady(back);
    const found = await until('the change in the index', async () => {
      const r = await call(back, 'POST', `/api/v1/integrations/connectors/${crm}/execute`, {
        entity: 'contacts',
        action: 'context_store_search',
        params: { query: { filter: { eq: { 'properties.firstname': changed!.value } } } },
      });
      expect(r.status).toBe(200);
      return r.body.result.data.length > 0 ? (r.body.result.data as { id: string }[]) : undefined;
    });
    expect(found.map((d) => d.id)).toEqual([changed!.id]);
    back.child.kill('SIGTERM');
    await back.exited;
    expect(onDisk(db, changed!.id).outbox).toBe(0);
  }, 120_000);
});
