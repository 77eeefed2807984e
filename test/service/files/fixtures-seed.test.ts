import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startService, type RunningService } from '../../../src/service/start.js';

const creds = { clientId: 'files-client', clientSecret: 'files-secret-0123456789' };
let running: RunningService | null = null;
const dirs: string[] = [];
afterEach(async () => {
  await running?.close();
  running = null;
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

async function call(r: RunningService, method: 'GET' | 'POST', url: string, payload?: Record<string, unknown>) {
  const tok = await r.app.inject({
    method: 'POST',
    url: '/api/v1/account/applications/token',
    payload: { client_id: creds.clientId, client_secret: creds.clientSecret },
  });
  const headers = { authorization: `Bearer ${tok.json().access_token}` };
  return payload === undefined
    ? r.app.inject({ method, url, headers })
    : r.app.inject({ method, url, headers, payload });
}

async function filesConnectorId(r: RunningService): Promise<string> {
  const list = await call(
    r,
    'GET',
    '/api/v1/integrations/connectors?workspace_name=default&definition_id=f1e2d3c4-b5a6-4978-8a9b-0c1d2e3f4a5b',
  );
  return list.json().data[0].id;
}

describe('Files demo seed and fixtures', () => {
  it('seeds folders with text, JSON and a valid PNG', async () => {
    running = await startService({ ...creds, seed: 'demo', seedSize: 10 });
    const id = await filesConnectorId(running);
    const exec = (body: Record<string, unknown>) =>
      call(running!, 'POST', `/api/v1/integrations/connectors/${id}/execute`, body);
    const files = (await exec({ entity: 'files', action: 'list' })).json().result as {
      id: string;
      name: string;
      contentType: string;
    }[];
    expect(files.map((f) => f.name).sort()).toEqual(['logo.png', 'pipeline.json', 'q1-notes.md', 'weekly-summary.txt']);
    const png = files.find((f) => f.name === 'logo.png')!;
    const dl = await exec({ entity: 'files', action: 'download', params: { fileId: png.id } });
    expect(dl.headers['content-type']).toBe('image/png');
    expect(dl.rawPayload.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))).toBe(
      true,
    );
    expect(dl.rawPayload.readUInt32BE(16)).toBe(16); // IHDR width
    const json = files.find((f) => f.name === 'pipeline.json')!;
    const body = (await exec({ entity: 'files', action: 'download', params: { fileId: json.id } })).rawPayload.toString(
      'utf8',
    );
    expect(JSON.parse(body).currency).toBe('USD');
    const folders = (await exec({ entity: 'folders', action: 'list' })).json().result as {
      name: string;
      parentId: string | null;
    }[];
    expect(folders.map((f) => f.name)).toEqual(['Reports', 'Archive', 'Images']);
  });

  it('loads a Files dataset from a fixtures file, and refuses an invalid one whole, naming each problem', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'files-fix-'));
    dirs.push(dir);
    const good = join(dir, 'good.yaml');
    writeFileSync(
      good,
      [
        'connectors:',
        '  - type: files',
        '    name: CI files',
        '    data:',
        '      folders:',
        '        - name: Docs',
        '          files:',
        '            - {name: hello.txt, text: "Hello\\n"}',
        '            - {name: data.json, json: {a: 1}}',
        '            - {name: raw.bin, base64: "AAEC", content_type: application/x-test}',
        '          folders:',
        '            - {name: Sub, files: [{name: x.md, text: "# x"}]}',
        '',
      ].join('\n'),
    );
    running = await startService({ ...creds, fixtures: good });
    const id = await filesConnectorId(running);
    const files = (
      await call(running, 'POST', `/api/v1/integrations/connectors/${id}/execute`, { entity: 'files', action: 'list' })
    ).json().result;
    expect(files.map((f: any) => [f.name, f.contentType, f.size])).toEqual([
      ['hello.txt', 'text/plain; charset=utf-8', 6],
      ['data.json', 'application/json', 13],
      ['raw.bin', 'application/x-test', 3],
      ['x.md', 'text/markdown; charset=utf-8', 3],
    ]);
    await running.close();
    running = null;

    const bad = join(dir, 'bad.json');
    writeFileSync(
      bad,
      JSON.stringify({
        connectors: [
          {
            type: 'files',
            data: {
              folders: [
                {
                  name: 'A',
                  files: [
                    { name: 'e.txt', text: '' },
                    { name: 'b', base64: 'a$' },
                    { name: 'c', text: 'x', json: 1 },
                  ],
                },
              ],
            },
          },
        ],
      }),
    );
    const refused = await startService({ ...creds, fixtures: bad }).then(
      () => null,
      (err: Error) => err.message,
    );
    expect(refused).toContain('fixtures.folders[0].files[0]: a file must hold at least 1 byte');
    expect(refused).toContain('fixtures.folders[0].files[1].base64');
    expect(refused).toContain('fixtures.folders[0].files[2]: give exactly one of text, json or base64');
  });
});
