/**
 * Messages that lead somewhere (issue 23 point 5), through the real CLI: after a failed run, `recipe run`
 * suggests `recipe resume` only when a resume can help (a transient failure, an interruption); after a 4xx
 * or a failure in the recipe it says to fix the recipe and redrive with --allow-changed; a missing secret
 * is reported at its `secrets:` entry, relative to the working directory, with the ways to give it.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from './cli-process.js';

let dir: string;
let server: Server;
let base: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'recipe-advice-'));
  mkdirSync(join(dir, 'recipes'));
  // Answers /status/NNN with that status.
  server = createServer((req, res) => {
    const status = Number(/\/status\/(\d{3})/.exec(req.url ?? '')?.[1] ?? 200);
    res.writeHead(status, { 'content-type': 'application/json' }).end('{"message":"as asked"}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

function recipe(name: string, text: string): string {
  const file = join(dir, 'recipes', `${name}.yaml`);
  writeFileSync(file, text);
  return file;
}

const httpRecipe = (name: string, status: number) =>
  recipe(
    name,
    `version: 1\nname: ${name}\nsteps:\n  - id: call\n    http: { url: "${base}/status/${status}" }\n    retry: { max_attempts: 1 }\n`,
  );

describe('after a failed run', () => {
  it('a 503 (transient): resume it', async () => {
    const r = await runCli(['run', httpRecipe('unavailable', 503)], { cwd: dir });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/C013 .*HTTP 503/);
    expect(r.stderr).toMatch(/run \S+ failed; resume it with: recipe resume \S+/);
  }, 120_000);

  it('a 400: fix the recipe and redrive with --allow-changed, not a bare resume', async () => {
    const r = await runCli(['run', httpRecipe('refused', 400)], { cwd: dir });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/C013 .*HTTP 400/);
    expect(r.stderr).toMatch(
      /the service refused a request \(HTTP 400\).*Fix the recipe.*recipe resume \S+ --allow-changed/,
    );
    expect(r.stderr).not.toContain('resume it with');
  }, 120_000);

  it('a failed assert: fix the recipe or start a new run with the right input', async () => {
    const file = recipe('asserted', 'version: 1\nname: asserted\nsteps:\n  - assert: "${ 1 = 2 }"\n');
    const r = await runCli(['run', file], { cwd: dir });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/the recipe failed .*--allow-changed.*a wrong input needs a new run/);
    expect(r.stderr).not.toContain('resume it with');
  }, 120_000);
});

describe('a missing secret', () => {
  const text = 'version: 1\nname: needs-secret\nsecrets:\n  - API_KEY\nsteps:\n  - log: "${ $secrets.API_KEY }"\n';

  it('is reported at its secrets: entry, relative to the working directory, with the ways to give it', async () => {
    const file = recipe('needs-secret', text);
    for (const given of [file, 'recipes/needs-secret.yaml']) {
      const r = await runCli(['run', given], { cwd: dir });
      expect(r.code).toBe(3);
      expect(r.stderr).toContain(
        'recipes/needs-secret.yaml:4:5: X013 secret "API_KEY": environment variable API_KEY is not set; export it, or put it in .env (or pass --env-file FILE)',
      );
      expect(r.stderr).not.toContain(dir);
      expect(r.stderr).not.toContain('resume it with');
    }
  }, 120_000);

  it('--json gives the same place', async () => {
    const r = await runCli(['run', join(dir, 'recipes/needs-secret.yaml'), '--json'], { cwd: dir });
    const report = JSON.parse(r.stdout) as { error: { code: string; file: string; line: number; column: number } };
    expect(report.error).toMatchObject({ code: 'X013', file: 'recipes/needs-secret.yaml', line: 4, column: 5 });
  }, 120_000);
});

describe('paths relative to the working directory', () => {
  it('validate names a file given absolute by its relative path', async () => {
    const file = recipe('unknown-var', 'version: 1\nname: unknown-var\nsteps:\n  - log: "${ $nope }"\n');
    const r = await runCli(['validate', file], { cwd: dir });
    expect(r.code).toBe(2);
    expect(r.stdout + r.stderr).toContain('recipes/unknown-var.yaml:4:14: R002 unknown variable $nope');
    expect(r.stdout + r.stderr).not.toContain(dir);
  });

  it('resume of an unknown run names the journal relative', async () => {
    const r = await runCli(['resume', 'no-such-run'], { cwd: dir });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('J001 no run "no-such-run" in the journal .recipe/runs.db');
  });
});
