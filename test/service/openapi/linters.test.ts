import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { createConfig, lintFromString } from '@redocly/openapi-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestService, type TestService } from '../helpers.js';

/**
 * The tools people point at an OpenAPI document find nothing to say about ours: Spectral's `spectral:oas`
 * ruleset (its CLI, as a user runs it) and Redocly's `recommended` rules (its library: the CLI of the same
 * rules phones home for telemetry and updates, and no test may send traffic off this machine).
 */
const run = promisify(execFile);
const spectralBin = join(
  dirname(createRequire(import.meta.url).resolve('@stoplight/spectral-cli/package.json')),
  'dist/index.js',
);

let svc: TestService;
let dir: string;
let text: string;

beforeAll(async () => {
  svc = await createTestService();
  const res = await svc.app.inject({ method: 'GET', url: '/api/v1/openapi.json' });
  expect(res.statusCode).toBe(200);
  text = res.body;
  dir = await mkdtemp(join(tmpdir(), 'openapi-lint-'));
  await writeFile(join(dir, 'openapi.json'), text);
  await writeFile(join(dir, '.spectral.yaml'), 'extends: ["spectral:oas"]\n');
});
afterAll(async () => {
  await svc.close();
  await rm(dir, { recursive: true, force: true });
});

interface SpectralResult {
  readonly code: string;
  readonly message: string;
  readonly path: readonly string[];
}

async function spectral(file: string): Promise<SpectralResult[]> {
  // --fail-severity hint: any finding at all makes the exit code non-zero; the JSON names each one.
  const args = [
    spectralBin,
    'lint',
    file,
    '--ruleset',
    join(dir, '.spectral.yaml'),
    '-f',
    'json',
    '--fail-severity',
    'hint',
    '-q',
  ];
  const out = await run(process.execPath, args, { cwd: dir }).catch((err: { stdout?: string }) => ({
    stdout: err.stdout ?? '',
  }));
  const json = out.stdout.slice(out.stdout.indexOf('['), out.stdout.lastIndexOf(']') + 1);
  return JSON.parse(json) as SpectralResult[];
}

async function redocly(source: string): Promise<string[]> {
  const config = await createConfig({ extends: ['recommended'] });
  const problems = await lintFromString({ source, absoluteRef: join(dir, 'openapi.json'), config });
  return problems.map((p) => `${p.severity} ${p.ruleId}: ${p.message} at ${p.location[0]?.pointer ?? ''}`);
}

describe('our OpenAPI document under the linters users run', () => {
  it("Spectral's spectral:oas reports no errors and no warnings", async () => {
    expect(await spectral(join(dir, 'openapi.json'))).toEqual([]);
  }, 60_000);

  it('Spectral does report a finding on a document that breaks one of its rules (the check can fail)', async () => {
    const broken = JSON.parse(text) as { paths: Record<string, Record<string, { tags?: string[] }>> };
    broken.paths['/api/v1/skills']!.get!.tags = ['undeclared-tag'];
    await writeFile(join(dir, 'broken.json'), JSON.stringify(broken));
    const codes = (await spectral(join(dir, 'broken.json'))).map((r) => r.code);
    expect(codes).toContain('operation-tag-defined');
  }, 60_000);

  it("Redocly's recommended rules report no errors and no warnings", async () => {
    expect(await redocly(text)).toEqual([]);
  });

  it('Redocly does report a finding on a document that breaks one of its rules (the check can fail)', async () => {
    const broken = JSON.parse(text) as {
      paths: Record<string, Record<string, { responses: Record<string, unknown> }>>;
    };
    const op = broken.paths['/api/v1/skills']!.get!;
    op.responses = { '200': op.responses['200'] };
    expect((await redocly(JSON.stringify(broken))).join('\n')).toMatch(/operation-4xx-response/);
  });
});
