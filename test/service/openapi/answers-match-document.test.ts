import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, type RunningService } from '../../../src/service/start.js';

/**
 * Live answers of the embedded service, over HTTP, validate against its own OpenAPI document (ajv, the
 * document loaded whole so its $refs resolve): the envelope against execute's 200 schema (result: anyOf the
 * actions' result schemas), each result against the very schema its request variant points at
 * (x-result-schema), and a download against the media type and headers the document declares.
 */
type Json = Record<string, any>;

let svc: RunningService;
let doc: Json;
let ajv: Ajv2020;
let token: string;
const connectorIds = new Map<string, string>();

async function api(method: string, path: string, body?: unknown): Promise<Response> {
  return fetch(`${svc.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body !== undefined && { 'content-type': 'application/json' }) },
    ...(body !== undefined && { body: JSON.stringify(body) }),
  });
}

async function execute(type: string, entity: string, action: string, params: Json): Promise<Response> {
  return api('POST', `/api/v1/integrations/connectors/${connectorIds.get(type)}/execute`, { entity, action, params });
}

const EXECUTE = '/api/v1/integrations/connectors/{id}/execute';

function validatorAt(pointer: string): ValidateFunction {
  return ajv.compile({ $ref: `openapi.json#${pointer}` });
}

function variantOf(type: string, entity: string, action: string): Json {
  const variants = doc.paths[EXECUTE].post.requestBody.content['application/json'].schema.oneOf as Json[];
  const found = variants.find((v) => v.title === `${type}: ${entity}.${action}`);
  if (!found) throw new Error(`no request variant for ${type}: ${entity}.${action}`);
  return found;
}

beforeAll(async () => {
  svc = await startService({ port: 0, seed: 'demo', seedSize: 20 });
  doc = (await (await fetch(`${svc.url}/api/v1/openapi.json`)).json()) as Json;
  ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: false });
  ajv.addSchema(doc, 'openapi.json');
  const res = await fetch(`${svc.url}/api/v1/account/applications/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ client_id: svc.credentials.clientId, client_secret: svc.credentials.clientSecret }),
  });
  token = ((await res.json()) as { access_token: string }).access_token;
  const list = (await (await api('GET', '/api/v1/integrations/connectors')).json()) as {
    data: { id: string; summarized_source_template: { name: string } }[];
  };
  for (const c of list.data) connectorIds.set(c.summarized_source_template.name, c.id);
}, 120_000);
afterAll(async () => svc?.close());

describe('answers of the embedded service validate against its OpenAPI document', () => {
  it('every kind of CRM and Files action: the envelope, and the result against its own action schema', async () => {
    const envelope = validatorAt(
      `/paths/${EXECUTE.replace(/\//g, '~1')}/post/responses/200/content/application~1json/schema`,
    );
    const first = async (type: string, entity: string, action: string, params: Json = {}) =>
      ((await (await execute(type, entity, action, params)).json()) as Json).result[0];
    const contact = (await first('CRM', 'contacts', 'list', { limit: 1 })).id;
    const company = (await first('CRM', 'companies', 'list', { limit: 1 })).id;
    const objectType = (await first('CRM', 'schemas', 'list')).objectTypeId;
    const folder = (await first('Files', 'folders', 'list')).id;
    const file = (await first('Files', 'files', 'list')).id;
    const note = (
      (await (await execute('CRM', 'notes', 'create', { properties: { hs_note_body: 'x' } })).json()) as Json
    ).result.id;
    const association = {
      fromObjectType: 'contacts',
      fromObjectId: contact,
      toObjectType: 'companies',
      toObjectId: company,
    };
    const calls: [string, string, string, Json][] = [
      ['CRM', 'contacts', 'list', { associations: 'companies', propertiesWithHistory: 'email' }],
      ['CRM', 'contacts', 'get', { contactId: contact, properties: 'email,phone' }],
      ['CRM', 'contacts', 'create', { properties: { email: 'document@x.example' } }],
      ['CRM', 'contacts', 'update', { contactId: contact, properties: { firstname: 'D' } }],
      ['CRM', 'contacts', 'api_search', { query: 'a', limit: 3 }],
      ['CRM', 'notes', 'delete', { noteId: note }],
      ['CRM', 'notes', 'list', { archived: true }],
      ['CRM', 'schemas', 'list', {}],
      ['CRM', 'schemas', 'get', { objectType }],
      ['CRM', 'objects', 'list', { objectType, associations: 'contacts' }],
      ['CRM', 'associations', 'list', { fromObjectType: 'contacts', fromObjectId: contact, toObjectType: 'companies' }],
      [
        'CRM',
        'associations',
        'create',
        { associationCategory: 'PLATFORM_DEFINED', associationTypeId: 279, ...association },
      ],
      ['CRM', 'associations', 'delete', association],
      ['Files', 'folders', 'list', {}],
      ['Files', 'folders', 'get', { folderId: folder }],
      ['Files', 'folders', 'create', { name: 'document-check' }],
      ['Files', 'files', 'list', { limit: 5 }],
      ['Files', 'files', 'get', { fileId: file }],
      [
        'Files',
        'files',
        'create',
        { name: 'check.txt', folderId: folder, content: Buffer.from('hello').toString('base64') },
      ],
    ];
    for (const [type, entity, action, params] of calls) {
      const res = await execute(type, entity, action, params);
      const body = (await res.json()) as Json;
      expect(res.status, `${type} ${entity}.${action}: ${JSON.stringify(body).slice(0, 300)}`).toBe(200);
      expect(envelope(body), `${entity}.${action} envelope: ${ajv.errorsText(envelope.errors)}`).toBe(true);
      const own = ajv.compile({ $ref: `openapi.json${variantOf(type, entity, action)['x-result-schema'].$ref}` });
      expect(own(body.result), `${entity}.${action} result: ${ajv.errorsText(own.errors)}`).toBe(true);
    }
  }, 120_000);

  it('every read action that needs no params, of every connector type, answers as the document says', async () => {
    const envelope = validatorAt(
      `/paths/${EXECUTE.replace(/\//g, '~1')}/post/responses/200/content/application~1json/schema`,
    );
    const variants = doc.paths[EXECUTE].post.requestBody.content['application/json'].schema.oneOf as Json[];
    const reads = variants.filter(
      (v) => v['x-write'] === false && !v.required.includes('params') && v.properties.action.const !== 'download',
    );
    expect(reads.length).toBeGreaterThan(15);
    for (const v of reads) {
      const [entity, action] = [v.properties.entity.const as string, v.properties.action.const as string];
      const res = await execute(v['x-connector-type'] as string, entity, action, {});
      const body = (await res.json()) as Json;
      expect(res.status, `${v.title}: ${JSON.stringify(body).slice(0, 300)}`).toBe(200);
      expect(envelope(body), `${v.title} envelope: ${ajv.errorsText(envelope.errors)}`).toBe(true);
      const own = ajv.compile({ $ref: `openapi.json${v['x-result-schema'].$ref}` });
      expect(own(body.result), `${v.title} result: ${ajv.errorsText(own.errors)}`).toBe(true);
    }
  }, 120_000);

  it('the envelope schema refuses an answer no action gives (the check can fail)', () => {
    const envelope = validatorAt(
      `/paths/${EXECUTE.replace(/\//g, '~1')}/post/responses/200/content/application~1json/schema`,
    );
    const bad = { status: 'success', result: 42, connector_metadata: {}, execution_metadata: {} };
    expect(envelope(bad)).toBe(false);
  });

  it('a download answers the bytes with a declared media type and the declared headers', async () => {
    const file = ((await (await execute('Files', 'files', 'list', { limit: 1 })).json()) as Json).result[0];
    const res = await execute('Files', 'files', 'download', { fileId: file.id });
    expect(res.status).toBe(200);
    const declared = doc.paths[EXECUTE].post.responses['200'];
    expect(Object.keys(declared.content)).toContain('*/*');
    expect(res.headers.get('content-type')).toBeTruthy();
    expect(res.headers.get('content-type')).not.toMatch(/^application\/json/);
    expect(Object.keys(declared.headers)).toContain('Content-Disposition');
    expect(res.headers.get('content-disposition')).toMatch(/attachment; filename=/);
    expect((await res.arrayBuffer()).byteLength).toBeGreaterThan(0);
  });
});
