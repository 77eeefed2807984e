/**
 * Connector checks through the real CLI (dist/, as built by `npm run build`): `recipe run --dry-run` checks
 * each computed write against the service's catalog and exits 1 on one it would refuse; `recipe validate
 * --against URL` reads the catalog a service publishes, caches it, and falls back to the cache.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { catalogCacheFile, embeddedCatalog, writeCachedCatalog } from '../../src/catalog/index.js';
import { startService, type RunningService } from '../../src/service/start.js';

const bin = new URL('../../bin/recipe.js', import.meta.url).pathname;
const recipes = new URL('../../recipes/', import.meta.url).pathname;

function recipe(args: string[], env: Record<string, string>, cwd: string) {
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve, reject) => {
    const clean: Record<string, string | undefined> = { ...process.env, NO_COLOR: '1' };
    for (const k of ['CONNECTOR_API_URL', 'CONNECTOR_CLIENT_ID', 'CONNECTOR_CLIENT_SECRET', 'CONNECTOR_WORKSPACE'])
      delete clean[k];
    const child = spawn(process.execPath, [bin, ...args], {
      env: { ...clean, ...env },
      cwd,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

const FOLLOW_UP = `version: 1
name: follow-up
connector: { definition: CRM }
inputs:
  priority: { type: string, default: high }
steps:
  - id: deals
    paginate: { entity: deals, action: list, params: { limit: 3 }, max_pages: 1 }
  - foreach: "\${ $deals }"
    as: deal
    index_as: i
    steps:
      - id: task
        execute:
          entity: tasks
          action: create
          params:
            properties:
              hs_task_subject: "Follow up \${ $deal.properties.dealname }"
              hs_task_priority: "\${ $i = 1 ? 'URGENT' : $uppercase($inputs.priority) }"
            associations:
              - to: { id: "\${ $deal.id }" }
                types: [{ associationCategory: PLATFORM_DEFINED, associationTypeId: task_to_deal }]
`;

let service: RunningService;
let env: Record<string, string>;
let dir: string;

beforeAll(async () => {
  service = await startService({ seed: 'demo', logLevel: 'silent' });
  env = {
    CONNECTOR_API_URL: service.url,
    CONNECTOR_CLIENT_ID: service.credentials.clientId,
    CONNECTOR_CLIENT_SECRET: service.credentials.clientSecret,
  };
  dir = mkdtempSync(join(tmpdir(), 'recipe-connector-checks-'));
  writeFileSync(join(dir, 'follow-up.yaml'), FOLLOW_UP);
});
afterAll(async () => {
  await service.close();
});

describe('recipe run --dry-run checks the computed writes', () => {
  it('exits 1 and lists the invalid write at its step with the loop index', async () => {
    const r = await recipe(['run', 'follow-up.yaml', '--dry-run'], env, dir);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('dry run: 3 writes not sent, 1 invalid');
    expect(r.stdout).toContain('✗ tasks.create (step task, line 13, item 1)');
    expect(r.stdout).toContain(
      'follow-up.yaml:13:9: A006 tasks.create params.properties.hs_task_priority: must be one of "LOW", "MEDIUM", "HIGH", got "URGENT" (item 1)',
    );
    expect(r.stderr).toContain('follow-up.yaml:13:9: X017 dry run: 1 of 3 writes would be refused by the connector');
  });

  it('--json marks each write valid or not, with the problems of the invalid one', async () => {
    const r = await recipe(['run', 'follow-up.yaml', '--dry-run', '--json'], env, dir);
    expect(r.code).toBe(1);
    const report = JSON.parse(r.stdout);
    expect(report.status).toBe('failed');
    expect(report.error).toMatchObject({ code: 'X017', line: 13 });
    expect(report.dry_run_writes.map((w: any) => [w.loop_index, w.valid])).toEqual([
      [[0], true],
      [[1], false],
      [[2], true],
    ]);
    expect(report.dry_run_writes[1].problems).toEqual([
      {
        code: 'A006',
        field: 'params.properties.hs_task_priority',
        message:
          'tasks.create params.properties.hs_task_priority: must be one of "LOW", "MEDIUM", "HIGH", got "URGENT"',
      },
    ]);
  });

  it('exits 0 on the shipped recipes that write, every write valid', async () => {
    for (const name of ['stale-deals-follow-up.yaml', 'ticket-triage.yaml', 'contacts-export.yaml']) {
      const r = await recipe(['run', join(recipes, name), '--dry-run', '--json'], env, dir);
      expect(r.code, `${name}: ${r.stderr}`).toBe(0);
      const writes = JSON.parse(r.stdout).dry_run_writes as { valid: boolean }[];
      expect(writes.every((w) => w.valid === true)).toBe(true);
    }
  });
});

describe('recipe validate --against', () => {
  it("checks against the service's catalog, caches it, and uses the cache when the service is away", async () => {
    writeFileSync(
      join(dir, 'bad.yaml'),
      'version: 1\nname: bad\nconnector: { definition: CRM }\nsteps:\n  - execute: { entity: contact, action: get }\n  - execute: { entity: leads, action: list }\n    connector: { definition: Salesforce }\n',
    );
    const r = await recipe(['validate', '--against', service.url, 'bad.yaml'], {}, dir);
    expect(r.code).toBe(2);
    expect(r.stdout).toContain(
      'bad.yaml:5:24: A001 connector type CRM has no entity "contact" (did you mean "contacts"?)',
    );
    // the service's catalog lists every type it has: an unknown definition is an error there
    expect(r.stdout).toContain(`bad.yaml:7:30: A010 connector type "Salesforce" is not offered by ${service.url}`);
    expect(readdirSync(join(dir, '.recipe', 'catalogs'))).toHaveLength(1);

    const online = await recipe(['validate', '--online', 'bad.yaml'], { CONNECTOR_API_URL: service.url }, dir);
    expect(online.stdout).toBe(r.stdout);

    // offline: the embedded catalog does not claim to know every type, so Salesforce is not checked
    const offline = await recipe(['validate', 'bad.yaml'], {}, dir);
    expect(offline.stdout).not.toContain('A010');
    expect(offline.stdout).toContain('A001');
  });

  it('falls back to the cached catalog, and exits 3 when there is none', async () => {
    const away = 'http://127.0.0.1:9';
    const none = await recipe(['validate', '--against', away, join(recipes, 'pipeline-report.yaml')], {}, dir);
    expect(none.code).toBe(3);
    expect(none.stderr).toContain('C012 cannot reach the connector service at http://127.0.0.1:9');

    const file = catalogCacheFile(join(dir, '.recipe'), away);
    writeCachedCatalog(file, { ...embeddedCatalog(), source: away, complete: true });
    const cached = await recipe(['validate', '--against', away, 'bad.yaml'], {}, dir);
    expect(cached.code).toBe(2);
    expect(cached.stderr).toContain(`using the catalog cached at`);
    expect(cached.stdout).toContain(`A010 connector type "Salesforce" is not offered by ${away}`);
    expect(existsSync(file)).toBe(true);
  });
});
