/**
 * `recipe run --dry-run` checks each computed write's values as the CRM's validateProperties does (dates,
 * numbers, integers, emails, beside enums and required and read-only properties), with the messages `validate`
 * gives, and fails with X017; placeholder ids name the call's place in the run, so concurrent writes get
 * distinct ones, the same on every dry run. Through the real CLI (dist/) against an in-process service.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, type RunningService } from '../../src/service/start.js';
import { runCli } from './cli-process.js';

let service: RunningService;
let env: Record<string, string>;
let dir: string;

beforeAll(async () => {
  service = await startService({ seed: 'demo', seedSize: 50, logLevel: 'silent' });
  env = {
    CONNECTOR_API_URL: service.url,
    CONNECTOR_CLIENT_ID: service.credentials.clientId,
    CONNECTOR_CLIENT_SECRET: service.credentials.clientSecret,
  };
  dir = mkdtempSync(join(tmpdir(), 'recipe-dry-run-values-'));
});
afterAll(async () => {
  await service.close();
  rmSync(dir, { recursive: true, force: true });
});

/** A recipe that writes `properties` (computed from an input, so validate cannot see the value). */
function writeRecipe(name: string, entity: string, properties: Record<string, string>): string {
  const props = Object.keys(properties)
    .map((k) => `${k}: "\${ $inputs.v.${k} }"`)
    .join(', ');
  writeFileSync(
    join(dir, name),
    `version: 1
name: values
connector: { definition: CRM }
inputs:
  v: { type: object, default: ${JSON.stringify(properties)} }
steps:
  - id: write
    execute: { entity: ${entity}, action: create, params: { properties: { ${props} } } }
`,
  );
  return name;
}

const dryRun = (file: string) => runCli(['run', file, '--dry-run', '--json'], { cwd: dir, env, timeoutMs: 120_000 });

describe('recipe run --dry-run checks values as the service will', () => {
  it.each([
    [
      'a date',
      'tasks',
      { hs_task_subject: 'Call', hs_timestamp: 'next friday' },
      'params.properties.hs_timestamp',
      'tasks.create params.properties.hs_timestamp: "next friday" is not a valid ISO 8601 date (or epoch milliseconds)',
    ],
    [
      'a number',
      'deals',
      { dealname: 'Big', amount: 'a lot' },
      'params.properties.amount',
      'deals.create params.properties.amount: "a lot" is not a number',
    ],
    [
      'an integer',
      'companies',
      { name: 'Acme', numberofemployees: '12.5' },
      'params.properties.numberofemployees',
      'companies.create params.properties.numberofemployees: "12.5" is not an integer',
    ],
    [
      'an enum',
      'tasks',
      { hs_task_subject: 'Call', hs_task_priority: 'URGENT' },
      'params.properties.hs_task_priority',
      'tasks.create params.properties.hs_task_priority: must be one of "LOW", "MEDIUM", "HIGH", got "URGENT"',
    ],
    [
      'an email',
      'contacts',
      { email: 'not-an-email', firstname: 'Ada' },
      'params.properties.email',
      'contacts.create params.properties.email: "not-an-email" is not a valid email address',
    ],
  ])('fails with X017 on %s, naming the property as validate does', async (what, entity, props, field, message) => {
    const file = writeRecipe(`bad-${what.replace(/\W/g, '')}.yaml`, entity, props);
    const r = await dryRun(file);
    expect(r.code, r.stderr).toBe(1);
    const report = JSON.parse(r.stdout) as {
      error: { code: string; line: number };
      dry_run_writes: { valid: boolean; problems: unknown[] }[];
    };
    expect(report.error).toMatchObject({ code: 'X017', line: 7 });
    expect(report.dry_run_writes[0]?.valid).toBe(false);
    expect(report.dry_run_writes[0]?.problems).toEqual([{ code: expect.stringMatching(/^A00[67]$/), field, message }]);
  });

  it('passes the values the service accepts (ISO dates, epoch milliseconds, numbers as text)', async () => {
    const file = writeRecipe('good.yaml', 'tasks', {
      hs_task_subject: 'Call',
      hs_timestamp: '2026-03-06T09:00:00+01:00',
      hs_task_reminders: '1772787600000',
    });
    const r = await dryRun(file);
    expect(r.code, r.stderr).toBe(0);
  });

  it('validate reports a literal bad date with the same message, at its line', async () => {
    writeFileSync(
      join(dir, 'literal.yaml'),
      `version: 1
name: literal
connector: { definition: CRM }
steps:
  - execute: { entity: tasks, action: create, params: { properties: { hs_task_subject: Call, hs_timestamp: next friday } } }
`,
    );
    const r = await runCli(['validate', 'literal.yaml'], { cwd: dir, env: {}, timeoutMs: 60_000 });
    expect(r.code).toBe(2);
    expect(r.stderr + r.stdout).toContain(
      'A007 tasks.create params.properties.hs_timestamp: "next friday" is not a valid ISO 8601 date (or epoch milliseconds)',
    );
  });

  it('gives five concurrent writes five distinct placeholder ids, the same on a second dry run', async () => {
    writeFileSync(
      join(dir, 'fan-out.yaml'),
      `version: 1
name: fan-out
connector: { definition: CRM }
steps:
  - id: tasks
    foreach: "\${ [1, 2, 3, 4, 5] }"
    as: n
    concurrency: 5
    steps:
      - id: t
        execute: { entity: tasks, action: create, params: { properties: { hs_task_subject: "Task \${ $n }" } } }
    collect: "\${ $t.id }"
outputs:
  ids: "\${ $tasks }"
`,
    );
    const ids = async () => {
      const r = await runCli(['run', 'fan-out.yaml', '--dry-run', '--json'], { cwd: dir, env, timeoutMs: 120_000 });
      expect(r.code, r.stderr).toBe(0);
      return (JSON.parse(r.stdout) as { outputs: { ids: string[] } }).outputs.ids;
    };
    const first = await ids();
    expect(first).toEqual([
      'dry-run-tasks[0].t',
      'dry-run-tasks[1].t',
      'dry-run-tasks[2].t',
      'dry-run-tasks[3].t',
      'dry-run-tasks[4].t',
    ]);
    expect(new Set(first).size).toBe(5);
    expect(await ids()).toEqual(first);
  });
});
