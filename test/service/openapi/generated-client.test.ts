import { execFile } from 'node:child_process';
import { mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import openapiTS, { astToString } from 'openapi-typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, type RunningService } from '../../../src/service/start.js';

/**
 * A user generates a client from our document with openapi-typescript, writes the spec's recommended call
 * order with openapi-fetch, compiles it under `tsc --strict` and runs it against the embedded service:
 * token → definitions → connector lookup → inspect → docs outline → a section → execute, paging contacts.
 * Nothing in the program is cast: what compiles is what the document promises. A JSON client names the
 * media type it reads (`createClient<paths, 'application/json'>`), as execute may answer a download's bytes.
 */
const run = promisify(execFile);
const repo = resolve(import.meta.dirname, '../../..');

const program = `
import createClient from 'openapi-fetch';
import type { paths } from './api.js';

const [base, clientId] = process.argv.slice(2);
const clientSecret = process.env['CLIENT_SECRET'];
if (base === undefined || clientId === undefined || clientSecret === undefined) throw new Error('usage: CLIENT_SECRET=… client.js URL ID');
// Execute may answer a file's bytes (any media type) for a download; a JSON client asks for JSON only.
const api = createClient<paths, 'application/json'>({ baseUrl: base });

function must<T>(answer: { data?: T; error?: unknown; response: Response }, what: string): T {
  if (answer.data === undefined) throw new Error(what + ': ' + answer.response.status + ' ' + JSON.stringify(answer.error));
  return answer.data;
}

const token = must(
  await api.POST('/api/v1/account/applications/token', { body: { client_id: clientId, client_secret: clientSecret } }),
  'token',
);
const headers = { Authorization: 'Bearer ' + token.access_token };

const definitions = must(await api.GET('/api/v1/integrations/definitions/sources', { headers }), 'definitions');
const crm = definitions.definitions.find((d) => d.name === 'CRM');
if (crm === undefined) throw new Error('no CRM definition');

const connectors = must(
  await api.GET('/api/v1/integrations/connectors', { headers, params: { query: { definition_id: crm.sourceDefinitionId } } }),
  'connectors',
);
const connector = connectors.data.find((c) => c.summarized_source_template.actor_definition_id === crm.sourceDefinitionId);
if (connector === undefined) throw new Error('no CRM connector');
const id = connector.id;

const inspect = must(await api.GET('/api/v1/integrations/connectors/{id}/inspect', { headers, params: { path: { id } } }), 'inspect');
const outline = must(await api.GET('/api/v1/skills/docs', { headers, params: { query: { id: inspect.docs_skill_id } } }), 'outline');
const first = outline.outline[0];
if (first === undefined) throw new Error('empty outline');
must(await api.GET('/api/v1/skills/docs', { headers, params: { query: { id: inspect.docs_skill_id, section: first.id } } }), 'section');

const ids: string[] = [];
let after: string | undefined;
let pages = 0;
for (;;) {
  const page = must(
    await api.POST('/api/v1/integrations/connectors/{id}/execute', {
      headers,
      params: { path: { id } },
      body: { entity: 'contacts', action: 'list', params: { limit: 25, ...(after !== undefined && { after }) } },
    }),
    'execute',
  );
  pages++;
  // result is any of the actions' result schemas; contacts.list answers an array of records with an id.
  const rows = Array.isArray(page.result) ? page.result : [];
  for (const row of rows) if (typeof row === 'object' && row !== null && 'id' in row) ids.push(String(row.id));
  const next = page.connector_metadata['end_cursor'];
  if (typeof next !== 'string' || page.connector_metadata['has_next_page'] !== true) break;
  after = next;
}
console.log(JSON.stringify({ connector: id, docsSkill: inspect.docs_skill_id, section: first.id, pages, ids }));
`;

let svc: RunningService;
let dir: string;

beforeAll(async () => {
  svc = await startService({ port: 0, seed: 'demo', seedSize: 60 });
  dir = await mkdtemp(join(tmpdir(), 'generated-client-'));
  await symlink(join(repo, 'node_modules'), join(dir, 'node_modules'));
  const doc = (await (await fetch(`${svc.url}/api/v1/openapi.json`)).json()) as Parameters<typeof openapiTS>[0];
  await writeFile(join(dir, 'api.d.ts'), astToString(await openapiTS(doc)));
  await writeFile(join(dir, 'client.ts'), program);
  await writeFile(join(dir, 'package.json'), JSON.stringify({ type: 'module' }));
  const tsconfig = {
    compilerOptions: {
      strict: true,
      noUncheckedIndexedAccess: true,
      target: 'ES2022',
      module: 'NodeNext',
      moduleResolution: 'NodeNext',
      skipLibCheck: false,
      types: ['node'],
      lib: ['ES2022', 'DOM'],
    },
    files: ['client.ts'],
  };
  await writeFile(join(dir, 'tsconfig.json'), JSON.stringify(tsconfig));
}, 120_000);
afterAll(async () => {
  await svc?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('a client generated from our OpenAPI document', () => {
  it('compiles under tsc --strict and runs the recommended call order, paging contacts', async () => {
    const tsc = join(repo, 'node_modules/typescript/bin/tsc');
    const compiled = await run(process.execPath, [tsc, '-p', dir], { cwd: dir }).catch(
      (err: { stdout?: string; stderr?: string }) => ({
        stdout: `${err.stdout ?? ''}${err.stderr ?? ''}`,
        failed: true,
      }),
    );
    expect(compiled, compiled.stdout).not.toHaveProperty('failed');
    const { clientId, clientSecret } = svc.credentials;
    const env = { ...process.env, CLIENT_SECRET: clientSecret };
    const out = await run(process.execPath, [join(dir, 'client.js'), svc.url, clientId], { cwd: dir, env });
    const result = JSON.parse(out.stdout) as { connector: string; docsSkill: string; pages: number; ids: string[] };
    expect(result.docsSkill).toBe(`connector-source:${result.connector}`);
    expect(result.pages).toBeGreaterThan(1);
    expect(new Set(result.ids).size).toBe(result.ids.length);
    expect(result.ids.length).toBeGreaterThan(25);
  }, 120_000);
});
