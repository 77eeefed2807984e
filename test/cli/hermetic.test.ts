import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { RECIPE_BIN, runCli } from './cli-process.js';

/** Hermetic runs from the CLI (issue 12 point 2): --fixtures, --db, --now and `.recipe/` discovery. */
const fixtures = new URL('./fixtures/crm.yaml', import.meta.url).pathname;
const pipelineReport = new URL('../../recipes/pipeline-report.yaml', import.meta.url).pathname;

const clockRecipe = `version: 1
name: clock
connector: { definition: CRM }
steps:
  - id: created
    execute: { entity: contacts, action: create, params: { properties: { email: "new@example.com" } } }
  - id: contacts
    paginate: { entity: contacts, action: list, params: { limit: 100 } }
outputs:
  started_at: "\${ $run.started_at }"
  created_at: "\${ $created.createdAt }"
  contacts: "\${ $count($contacts) }"
`;

function tempDir(prefix: string): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

describe('recipe run --fixtures --now', () => {
  it('runs on an in-memory service with that dataset only, the clock pinned for the run and the service', async () => {
    const cwd = tempDir('recipe-hermetic-');
    writeFileSync(join(cwd, 'clock.yaml'), clockRecipe);
    const now = '2026-07-15T09:00:00.000Z';
    // A configured URL is ignored: --fixtures asks for the embedded service (flags win over the environment).
    const r = await runCli(['run', 'clock.yaml', '--fixtures', fixtures, '--now', '2026-07-15T09:00:00Z', '--json'], {
      cwd,
      env: { CONNECTOR_API_URL: 'http://127.0.0.1:9' },
    });
    expect(r.code).toBe(0);
    expect(r.stderr.split('\n')[0]).toMatch(
      /^--fixtures: using the embedded service at http:\/\/127\.0\.0\.1:\d+ \(in memory, fixtures .*crm\.yaml\)$/,
    );
    // Two contacts from the fixtures plus the one created: no demo data.
    expect(JSON.parse(r.stdout).outputs).toEqual({ started_at: now, created_at: now, contacts: 3 });
    expect(existsSync(join(cwd, '.recipe'))).toBe(false);
  });

  it('the same run twice gives the same report outputs (nothing kept between runs)', async () => {
    const cwd = tempDir('recipe-hermetic-');
    const args = ['run', pipelineReport, '--fixtures', fixtures, '--now', '2026-07-15T09:00:00Z', '--json'];
    const [a, b] = [await runCli(args, { cwd }), await runCli(args, { cwd })];
    expect(JSON.parse(a.stdout).outputs).toEqual(JSON.parse(b.stdout).outputs);
    expect(JSON.parse(a.stdout).outputs).toMatchObject({ open_deals: 2, open_amount: 3500 });
  });

  it('a fixtures file that does not load is invalid (exit 2, I006) and names the problem', async () => {
    const cwd = tempDir('recipe-hermetic-');
    writeFileSync(join(cwd, 'bad.yaml'), 'connectors:\n  - type: Nope\n    data: {}\n');
    const bad = await runCli(['run', pipelineReport, '--fixtures', 'bad.yaml'], { cwd });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('I006 fixtures bad.yaml: at /connectors/0/type: unknown connector type "Nope"');
    const missing = await runCli(['run', pipelineReport, '--fixtures', 'missing.yaml', '--json'], { cwd });
    expect(missing.code).toBe(2);
    expect(JSON.parse(missing.stdout).error.code).toBe('I006');
  });
});

describe('recipe run --db', () => {
  it('keeps the embedded data in that file: a second run sees what the first wrote', async () => {
    const cwd = tempDir('recipe-db-');
    writeFileSync(join(cwd, 'clock.yaml'), clockRecipe.replace('new@example.com', '${ $run.id }@example.com'));
    const first = await runCli(['run', 'clock.yaml', '--db', 'data/test.db', '--fixtures', fixtures, '--json'], {
      cwd,
    });
    expect(first.code).toBe(0);
    expect(first.stderr.split('\n')[0]).toMatch(/\(database data\/test\.db, fixtures .*\)$/);
    expect(JSON.parse(first.stdout).outputs.contacts).toBe(3);
    expect(existsSync(join(cwd, 'data/credentials.json'))).toBe(true);
    // Without --fixtures the file is used as it is (the fixture connector is still there, with its new contact).
    const second = await runCli(['run', 'clock.yaml', '--db', 'data/test.db', '--json'], { cwd });
    expect(second.code).toBe(0);
    expect(JSON.parse(second.stdout).outputs.contacts).toBe(4);
    expect(second.stderr.split('\n')[0]).toMatch(
      /^--db: using the embedded service at \S+ \(database data\/test\.db\)$/,
    );
  }, 60_000);
});

describe('.recipe/ discovery', () => {
  it('a run from a subfolder uses the .recipe/ of the folder above instead of creating a new one', async () => {
    const root = tempDir('recipe-discover-');
    const first = await runCli(['run', pipelineReport, '-q'], { cwd: root });
    expect(first.code).toBe(0);
    expect(existsSync(join(root, '.recipe/local.db'))).toBe(true);
    const deep = join(root, 'a', 'b');
    mkdirSync(deep, { recursive: true });
    const r = await runCli(['run', pipelineReport], { cwd: deep });
    expect(r.code).toBe(0);
    expect(r.stderr.split('\n')[0]).toMatch(
      /^no CONNECTOR_API_URL: using the embedded service at \S+ \(database \.\.\/\.\.\/\.recipe\/local\.db\)$/,
    );
    expect(existsSync(join(deep, '.recipe'))).toBe(false);
    expect(r.stdout).toBe(first.stdout);
  }, 60_000);

  it('recipe serve from a subfolder serves the same database', async () => {
    const root = tempDir('recipe-discover-');
    mkdirSync(join(root, '.recipe'));
    mkdirSync(join(root, 'sub'));
    const child = spawn(process.execPath, [RECIPE_BIN, 'serve', '--port', '0', '--seed', 'none'], {
      cwd: join(root, 'sub'),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (out += d.toString()));
    await new Promise<void>((resolve, reject) => {
      child.stdout.on('data', () => out.includes('listening on') && resolve());
      child.on('exit', () => reject(new Error(`serve exited: ${out}`)));
    });
    const exited = new Promise((resolve) => child.on('exit', resolve));
    child.kill('SIGTERM');
    await exited;
    expect(out).toContain('credentials: ../.recipe/credentials.json');
    expect(existsSync(join(root, '.recipe/local.db'))).toBe(true);
    expect(existsSync(join(root, 'sub/.recipe'))).toBe(false);
  });
});
