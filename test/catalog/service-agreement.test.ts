/**
 * The static connector checks agree with the service that enforces the schemas:
 * - over the golden cases, every connector call whose params are fully literal is sent to the real service:
 *   a call the checker accepts is accepted (no 400), and one it refuses is refused with a 400;
 * - every shipped recipe, dry-run against the real service, has only writes the checker accepts, and each
 *   of those writes, sent for real, passes the service's validation.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import {
  checkAssociations,
  checkParams,
  embeddedCatalog,
  findType,
  type CatalogType,
} from '../../src/catalog/index.js';
import { ConnectorClient } from '../../src/client/index.js';
import { runRecipe } from '../../src/run/index.js';
import { startService, type RunningService } from '../../src/service/start.js';

const root = path.resolve(import.meta.dirname, '../..');
const catalog = embeddedCatalog();

let service: RunningService;
let client: ConnectorClient;
let token: string;
const connectorIds = new Map<string, string>();

beforeAll(async () => {
  service = await startService({ seed: 'demo', logLevel: 'silent' });
  client = new ConnectorClient({ baseUrl: service.url, ...service.credentials, workspace: 'default' });
  connectorIds.set('CRM', await client.resolveConnector({ definition: 'CRM' }));
  connectorIds.set('Files', await client.resolveConnector({ definition: 'Files' }));
  const res = await fetch(`${service.url}/api/v1/account/applications/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ client_id: service.credentials.clientId, client_secret: service.credentials.clientSecret }),
  });
  token = ((await res.json()) as { access_token: string }).access_token;
});
afterAll(async () => {
  await client.close();
  await service.close();
});

/** POST execute, raw: the status and the parsed body (a download answers bytes). */
async function execute(type: string, entity: string, action: string, params: unknown) {
  const res = await fetch(`${service.url}/api/v1/integrations/connectors/${connectorIds.get(type)}/execute`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify({ entity, action, params }),
  });
  const text = await res.text();
  return { status: res.status, text };
}

interface Call {
  readonly where: string;
  readonly type: CatalogType;
  readonly entity: string;
  readonly action: string;
  readonly params: Record<string, unknown>;
}

/** Connector calls of a recipe document whose type is written literally and whose params hold no expression. */
function literalCalls(file: string): Call[] {
  let doc: Record<string, any>;
  try {
    doc = parse(readFileSync(file, 'utf8')) as Record<string, any>;
  } catch {
    return []; // the YAML cases (alias bombs, bad syntax) hold no call
  }
  const out: Call[] = [];
  const typeOf = (ref: any) =>
    ref && typeof ref.definition === 'string' && !ref.definition.includes('${')
      ? findType(catalog, ref.definition)
      : undefined;
  const recipeType = typeOf(doc?.connector);
  const visit = (steps: unknown, prefix: string) => {
    if (!Array.isArray(steps)) return;
    steps.forEach((step: any, i: number) => {
      if (!step || typeof step !== 'object') return;
      const kind = ['execute', 'paginate', 'download'].find((k) => k in step);
      const type = step.connector ? typeOf(step.connector) : recipeType;
      const body = kind ? step[kind] : undefined;
      if (kind && type && body && typeof body.entity === 'string') {
        const params = body.params ?? {};
        const action = body.action ?? (kind === 'download' ? 'download' : undefined);
        if (typeof action === 'string' && typeof params === 'object' && !JSON.stringify(params).includes('${'))
          out.push({ where: `${path.basename(file)} ${prefix}${i}`, type, entity: body.entity, action, params });
      }
      visit(step.steps, `${prefix}${i}.`);
    });
  };
  visit(doc?.steps, '');
  return out;
}

/** The checker's verdict on a literal call: the codes of its errors (warnings aside). */
function staticErrors(call: Call): string[] {
  const entity = call.type.entities.find((e) => e.name === call.entity);
  const action = entity?.actions.find((a) => a.action === call.action);
  if (!entity) return ['A001'];
  if (!action) return ['A002'];
  const value = { kind: 'literal' as const, value: call.params };
  return [...checkParams(action, value, entity), ...checkAssociations(call.type, action, value)].map((p) => p.code);
}

describe('static checks against the real service', () => {
  const goldenDirs = ['invalid', 'valid', 'warnings'].map((d) => path.join(root, 'test/golden', d));
  const calls = goldenDirs.flatMap((dir) =>
    readdirSync(dir)
      .filter((f) => f.endsWith('.yaml'))
      .flatMap((f) => literalCalls(path.join(dir, f))),
  );

  it('finds literal calls in the golden cases, accepted and refused ones', () => {
    expect(calls.length).toBeGreaterThan(15);
    expect(calls.filter((c) => staticErrors(c).length === 0).length).toBeGreaterThan(5);
    expect(calls.filter((c) => staticErrors(c).length > 0).length).toBeGreaterThan(5);
  });

  it('a call the checker accepts passes the service validation; one it refuses gets a 400', async () => {
    const disagreements: string[] = [];
    for (const call of calls) {
      const errors = staticErrors(call);
      const { status, text } = await execute(call.type.name, call.entity, call.action, call.params);
      const refused = status === 400;
      if (refused !== errors.length > 0)
        disagreements.push(
          `${call.where} ${call.entity}.${call.action}: checker ${errors.join(',') || 'ok'}, service ${status} ${text.slice(0, 200)}`,
        );
    }
    expect(disagreements).toEqual([]);
  });

  it('every write of every shipped recipe, dry-run against the service, is valid, and the service accepts it', async () => {
    // recipes/*.test.yaml and *.fixtures.yaml are `recipe test` files and their data, not recipes.
    const recipes = readdirSync(path.join(root, 'recipes')).filter(
      (f) => f.endsWith('.yaml') && !/\.(test|fixtures)\.yaml$/.test(f),
    );
    let writes = 0;
    for (const name of recipes) {
      const result = await runRecipe(path.join(root, 'recipes', name), { client, dryRun: true, catalog });
      expect(result.diagnostics).toEqual([]);
      const report = result.report!;
      expect(report.status, `${name}: ${JSON.stringify(report.error)}`).toBe('ok');
      for (const w of report.dry_run_writes ?? []) {
        // The shipped recipes' writes are connector calls; an http step's write has no params schema to check.
        if ('url' in w) continue;
        expect(w.valid, `${name} ${w.body.entity}.${w.body.action}: ${JSON.stringify(w.problems)}`).toBe(true);
        const type = [...connectorIds].find(([, id]) => w.path.includes(id))![0];
        const sent = await execute(type, w.body.entity, w.body.action, w.body.params);
        // Accepted by the validation; a write that refers to an earlier dry-run placeholder id may find nothing.
        expect(sent.status, `${name} ${w.body.entity}.${w.body.action}: ${sent.text.slice(0, 300)}`).not.toBe(400);
        writes++;
      }
    }
    expect(writes).toBeGreaterThan(0);
  });
});
