import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startService, type RunningService } from '../../src/service/start.js';

/** Fixture files with the real CRM type, end to end through startService and HTTP. */
const running: RunningService[] = [];
const dirs: string[] = [];
afterEach(async () => {
  for (const s of running.splice(0)) await s.close();
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function file(name: string, text: string): string {
  const d = mkdtempSync(join(tmpdir(), 'recipe-fx-'));
  dirs.push(d);
  const p = join(d, name);
  writeFileSync(p, text);
  return p;
}

async function post(s: RunningService, path: string, body: unknown, token?: string): Promise<any> {
  const res = await fetch(`${s.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token && { authorization: `Bearer ${token}` }) },
    body: JSON.stringify(body),
  });
  return { status: res.status, json: await res.json() };
}

describe('CRM fixtures through recipe serve --fixtures', () => {
  it('loads a YAML dataset into a CRM connector that execute reads', async () => {
    const fx = file(
      'crm.yaml',
      `connectors:
  - type: crm
    name: CI CRM
    data:
      contacts:
        - {id: "501", properties: {email: one@example.com, firstname: One}}
        - {properties: {email: two@example.com, firstname: Two}}
      companies:
        - {id: "900", properties: {name: Acme}}
`,
    );
    const s = await startService({ fixtures: fx, seed: 'none' });
    running.push(s);
    const tok = (
      await post(s, '/api/v1/account/applications/token', {
        client_id: s.credentials.clientId,
        client_secret: s.credentials.clientSecret,
      })
    ).json.access_token;
    const list = await fetch(`${s.url}/api/v1/integrations/connectors?workspace_name=default`, {
      headers: { authorization: `Bearer ${tok}` },
    });
    const connectors = ((await list.json()) as { data: { id: string; name: string; definition_name: string }[] }).data;
    expect(connectors.map((c) => [c.name, c.definition_name])).toEqual([['CI CRM', 'CRM']]);
    const res = await post(
      s,
      `/api/v1/integrations/connectors/${connectors[0]!.id}/execute`,
      { entity: 'contacts', action: 'list', params: {}, select_fields: ['properties.email'] },
      tok,
    );
    expect(res.status).toBe(200);
    expect(res.json.result.map((r: { properties: { email: string } }) => r.properties.email).sort()).toEqual([
      'one@example.com',
      'two@example.com',
    ]);
  });

  it('fails whole with the file and the path inside the CRM data', async () => {
    const fx = file(
      'bad.json',
      JSON.stringify({
        connectors: [{ type: 'CRM', data: { contacts: [{ properties: { firstname: 'no email' } }] } }],
      }),
    );
    await expect(startService({ fixtures: fx, seed: 'none' })).rejects.toThrow(
      /bad\.json at \/connectors\/0\/data: .*contacts.*0.*email/,
    );
  });
});
