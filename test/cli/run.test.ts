import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, type RunningService } from '../../src/service/start.js';
import { envelope, json, startFaultServer, type FaultServer } from '../client/fault-server.js';

/** `recipe run` as a child process (dist/ as built by `npm run build`), against services started here. */
const bin = new URL('../../bin/recipe.js', import.meta.url).pathname;
const recipes = new URL('../../recipes/', import.meta.url).pathname;

interface Result {
  code: number | null;
  stdout: string;
  stderr: string;
}

function recipe(
  args: string[],
  env: Record<string, string | undefined>,
  opts: { cwd?: string; onStderr?: (text: string, child: ReturnType<typeof spawn>) => void } = {},
): Promise<Result> {
  return new Promise((resolve, reject) => {
    const clean: Record<string, string | undefined> = { ...process.env, NO_COLOR: '1' };
    for (const k of ['CONNECTOR_API_URL', 'CONNECTOR_CLIENT_ID', 'CONNECTOR_CLIENT_SECRET', 'CONNECTOR_WORKSPACE'])
      delete clean[k];
    const child = spawn(process.execPath, [bin, 'run', ...args], {
      env: { ...clean, ...env },
      cwd: opts.cwd ?? process.cwd(),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => {
      stderr += d.toString();
      opts.onStderr?.(stderr, child);
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

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
  dir = mkdtempSync(join(tmpdir(), 'recipe-cli-'));
});
afterAll(async () => {
  await service.close();
});

function write(name: string, text: string): string {
  const file = join(dir, name);
  writeFileSync(file, text);
  return file;
}

describe('recipe run', () => {
  it('--json prints one parseable run report on stdout (exit 0)', async () => {
    const r = await recipe([join(recipes, 'pipeline-report.yaml'), '--json'], env);
    expect(r.code).toBe(0);
    const report = JSON.parse(r.stdout) as {
      status: string;
      outputs: { open_deals: number };
      steps: { id: string; kind: string; status: string; requests: number; duration_ms: number; skipped: boolean }[];
      requests: number;
      duration_ms: number;
    };
    expect(report.status).toBe('ok');
    expect(report.outputs.open_deals).toBeGreaterThan(0);
    expect(report.steps.map((s) => [s.id, s.kind, s.status])).toEqual([
      ['deals', 'paginate', 'ok'],
      ['open', 'transform', 'ok'],
      ['by_stage', 'transform', 'ok'],
    ]);
    expect(report.steps[0]!.requests).toBe(report.requests);
    expect(typeof report.duration_ms).toBe('number');
  });

  it('prints outputs for a person on stdout and one plain line per step on stderr when not a terminal', async () => {
    const r = await recipe([join(recipes, 'pipeline-report.yaml')], env);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^open_deals: \d+$/m);
    expect(r.stdout).toMatch(/stage\s+deals\s+amount/);
    expect(r.stderr).toMatch(/^✓ deals \(paginate\) .*records/m);
    expect(r.stderr).not.toContain('\x1b[');
  });

  it('passes -i and --inputs (with -i winning) and reports invalid inputs like validate (exit 2)', async () => {
    const file = write(
      'inputs.yaml',
      `version: 1\nname: inputs\ninputs:\n  n: { type: integer, required: true }\n  word: { type: string, default: x }\nsteps:\n  - log: "n=\${ $inputs.n }"\noutputs:\n  n: "\${ $inputs.n }"\n  word: "\${ $inputs.word }"\n`,
    );
    const json = write('inputs.json', JSON.stringify({ n: 1, word: 'from-file' }));
    const ok = await recipe([file, '--inputs', json, '-i', 'n=7', '--json'], env);
    expect(ok.code).toBe(0);
    expect(JSON.parse(ok.stdout).outputs).toEqual({ n: 7, word: 'from-file' });
    const bad = await recipe([file, '-i', 'n=seven'], env);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/inputs\.yaml:4:\d+: I004 /);
  });

  it('--inputs FILE.json is read as JSON; a malformed one gets the YAML reader line:col diagnostics', async () => {
    const file = write(
      'ids.yaml',
      `version: 1\nname: ids\ninputs:\n  ids: { type: array, required: true }\nsteps:\n  - log: ids\noutputs:\n  n: "\${ $count($inputs.ids) }"\n  last: "\${ $inputs.ids[-1] }"\n`,
    );
    const ids = Array.from({ length: 5000 }, (_, i) => `c${i}`);
    const ok = await recipe([file, '--inputs', write('ids.json', JSON.stringify({ ids })), '--json'], env);
    expect(ok.code).toBe(0);
    expect(JSON.parse(ok.stdout).outputs).toEqual({ n: 5000, last: 'c4999' });
    const bad = await recipe([file, '--inputs', write('bad.json', '{\n  "ids": [1, 2,,]\n}\n')], env);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/bad\.json:2:\d+: Y\d+ /);
  });

  it('an invalid recipe exits 2 with FILE:LINE:COL diagnostics', async () => {
    const file = write('invalid.yaml', `version: 1\nname: invalid\nsteps:\n  - log: "\${ $nope }"\n`);
    const r = await recipe([file], env);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/invalid\.yaml:4:\d+: R002 /);
  });

  it('--connector replaces the recipe connector (an unknown id is a 404 run failure, exit 1)', async () => {
    const r = await recipe([join(recipes, 'pipeline-report.yaml'), '--connector', 'no-such-connector'], env);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/pipeline-report\.yaml:\d+:\d+: C005 deals\.list: HTTP 404/);
  });

  it('a false assert exits 1 with the location', async () => {
    const file = write(
      'assert.yaml',
      `version: 1\nname: assert\nsteps:\n  - assert: "\${ 1 > 2 }"\n    message: numbers are wrong\n`,
    );
    const r = await recipe([file, '--json'], env);
    expect(r.code).toBe(1);
    expect(JSON.parse(r.stdout).error).toMatchObject({ code: 'X002', line: 4 });
    expect(r.stderr).toContain('assert.yaml:4:5: X002 assertion failed: numbers are wrong');
  });

  it('wrong credentials exit 3, and the secret never appears', async () => {
    const r = await recipe([join(recipes, 'pipeline-report.yaml')], {
      ...env,
      CONNECTOR_CLIENT_SECRET: 'not-the-secret-42',
    });
    expect(r.code).toBe(3);
    expect(r.stderr).toContain('C002');
    expect(r.stderr + r.stdout).not.toContain('not-the-secret-42');
  });

  it('a URL without credentials is a configuration error (exit 3)', async () => {
    const r = await recipe([join(recipes, 'pipeline-report.yaml'), '--json'], { CONNECTOR_API_URL: service.url });
    expect(r.code).toBe(3);
    expect(JSON.parse(r.stdout)).toMatchObject({ status: 'failed', error: { code: 'C001' } });
    expect(r.stderr).toContain('C001 configuration: missing CONNECTOR_CLIENT_ID, CONNECTOR_CLIENT_SECRET');
  });

  it('--dry-run sends no write and lists each write in the report', async () => {
    const r = await recipe([join(recipes, 'ticket-triage.yaml'), '--dry-run', '--json'], env);
    expect(r.code).toBe(0);
    const report = JSON.parse(r.stdout) as {
      dry_run: boolean;
      outputs: { triaged: number };
      dry_run_writes: { body: { entity: string; action: string } }[];
    };
    expect(report.dry_run).toBe(true);
    expect(report.outputs.triaged).toBeGreaterThan(0);
    expect(report.dry_run_writes.map((w) => `${w.body.entity}.${w.body.action}`).sort()).toEqual(
      [
        ...Array(report.outputs.triaged).fill('notes.create'),
        ...Array(report.outputs.triaged).fill('tickets.update'),
      ].sort(),
    );
    // nothing was written: the real run still finds the same tickets to triage
    const again = await recipe([join(recipes, 'ticket-triage.yaml'), '--dry-run', '--json'], env);
    expect(JSON.parse(again.stdout).outputs.triaged).toBe(report.outputs.triaged);
  });

  it('--quiet prints only the outputs', async () => {
    const r = await recipe([join(recipes, 'pipeline-report.yaml'), '--quiet'], env);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    expect(r.stdout).toMatch(/^open_deals: \d+$/m);
  });

  it('masks secrets in logs and outputs', async () => {
    const file = write(
      'secret.yaml',
      `version: 1\nname: secret\nsecrets: [MY_TOKEN]\nsteps:\n  - log: "token \${ $secrets.MY_TOKEN }"\noutputs:\n  t: "\${ $secrets.MY_TOKEN }"\n`,
    );
    const r = await recipe([file], { ...env, MY_TOKEN: 'tok-abcdef-123456' });
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('token ***');
    expect(r.stdout).toContain('t: ***');
    expect(r.stdout + r.stderr).not.toContain('tok-abcdef-123456');
  });

  it.each(['SIGINT', 'SIGTERM'] as const)(
    '%s (Ctrl-C, a CI runner cancelling) stops cleanly with exit 130',
    async (signal) => {
      const slow: FaultServer = await startFaultServer(() => undefined); // never answers execute
      try {
        const file = write(
          'slow.yaml',
          `version: 1\nname: slow\nconnector: { id: c-1 }\nsteps:\n  - log: started\n  - execute: { entity: contacts, action: list }\n`,
        );
        let sent = false;
        const r = await recipe(
          [file],
          { CONNECTOR_API_URL: slow.url, CONNECTOR_CLIENT_ID: 'id-1', CONNECTOR_CLIENT_SECRET: 'shh-secret-1' },
          {
            onStderr: (text, child) => {
              if (!sent && text.includes('started')) {
                sent = true;
                setTimeout(() => child.kill(signal), 200);
              }
            },
          },
        );
        expect(sent).toBe(true);
        expect(r.code).toBe(130);
        expect(r.stderr).toMatch(/slow\.yaml:6:5: X009 run interrupted/);
      } finally {
        await slow.close();
      }
    },
  );

  it("keeps to a rate-limited service's announced rate: no 429, no retry, the run succeeds", async () => {
    // --rate-limit 1: one request a second per token, announced in RateLimit-Policy on every answer.
    const limited = await startService({ seed: 'demo', rateLimit: 1, logLevel: 'silent' });
    try {
      const r = await recipe([join(recipes, 'pipeline-report.yaml'), '--json', '--verbose'], {
        CONNECTOR_API_URL: limited.url,
        CONNECTOR_CLIENT_ID: limited.credentials.clientId,
        CONNECTOR_CLIENT_SECRET: limited.credentials.clientSecret,
      });
      expect(r.code, r.stderr).toBe(0);
      const report = JSON.parse(r.stdout) as { retries: number; requests: number; status: string };
      expect(report.status).toBe('ok');
      expect(report.requests).toBeGreaterThan(1);
      expect(report.retries).toBe(0);
      expect(r.stderr).not.toMatch(/→ 429/);
      expect(r.stderr).toMatch(
        /^debug: deals: POST \/api\/v1\/integrations\/connectors\/[^/]+\/execute deals\.list → 200 \(\d+ ms\)$/m,
      );
    } finally {
      await limited.close();
    }
  }, 120_000);

  it('retries a 429 that announces nothing and still succeeds (retries in the report)', async () => {
    let n = 0;
    const once: FaultServer = await startFaultServer((req, res) => {
      if (!req.path.endsWith('/execute')) return json(res, 404, { message: 'not here' });
      if (++n === 1) return json(res, 429, { message: 'slow down' }, { 'retry-after': '1' });
      return json(res, 200, envelope([]));
    });
    try {
      const file = write(
        'once.yaml',
        `version: 1\nname: once\nconnector: { id: c-1 }\nsteps:\n  - id: deals\n    execute: { entity: deals, action: list }\n`,
      );
      const r = await recipe([file, '--json', '--verbose'], {
        CONNECTOR_API_URL: once.url,
        CONNECTOR_CLIENT_ID: 'id-1',
        CONNECTOR_CLIENT_SECRET: 'shh-secret-1',
      });
      expect(r.code, r.stderr).toBe(0);
      expect((JSON.parse(r.stdout) as { retries: number }).retries).toBe(1);
      expect(r.stderr).toMatch(/^debug: deals: retry 1 in 1000 ms \(HTTP 429\)$/m);
    } finally {
      await once.close();
    }
  }, 60_000);

  it("a step's retry: completes from the one default policy (0.5 s first delay, doubling)", async () => {
    const busy: FaultServer = await startFaultServer((_req, res) => {
      res.writeHead(503, { 'content-type': 'application/json' });
      res.end('{"message":"busy"}');
    });
    try {
      const file = write(
        'retry-defaults.yaml',
        `version: 1\nname: retry-defaults\nconnector: { id: c-1 }\nsteps:\n  - id: given\n    execute: { entity: contacts, action: list }\n    retry: { max_attempts: 3, max_delay_ms: 800, jitter: false }\n    on_error: continue\n`,
      );
      const r = await recipe([file, '--json', '--verbose'], {
        CONNECTOR_API_URL: busy.url,
        CONNECTOR_CLIENT_ID: 'id-1',
        CONNECTOR_CLIENT_SECRET: 'shh-secret-1',
      });
      expect(r.code).toBe(0);
      // initial_delay_ms and factor come from the defaults (500 ms, ×2), max_delay_ms from the step.
      expect(r.stderr).toMatch(/^debug: given: retry 1 in 500 ms \(HTTP 503\)$/m);
      expect(r.stderr).toMatch(/^debug: given: retry 2 in 800 ms \(HTTP 503\)$/m);
      const report = JSON.parse(r.stdout) as { steps: { id: string; requests: number; retries: number }[] };
      expect(report.steps[0]).toMatchObject({ id: 'given', requests: 3, retries: 2 });
    } finally {
      await busy.close();
    }
  }, 60_000);

  it("learns from inspect's actions[].write which actions write; a service that does not say keeps the name rule", async () => {
    // A look-alike of a newer service with an action the name rule does not know (export, a read).
    const serviceSays = async (says: boolean | undefined) => {
      const server: FaultServer = await startFaultServer((req, res) => {
        if (req.path.endsWith('/inspect'))
          return json(res, 200, {
            connector_id: 'c-1',
            actions: [
              {
                entity: 'contacts',
                action: 'export',
                required_params: [],
                optional_params: [],
                ...(says === undefined ? {} : { write: says }),
              },
            ],
          });
        return json(res, 200, envelope({ url: 'https://files.example/export.csv' }));
      });
      const file = write(
        'export.yaml',
        `version: 1\nname: export\nconnector: { id: c-1 }\nsteps:\n  - id: exported\n    execute: { entity: contacts, action: export }\noutputs:\n  url: "\${ $exported.url }"\n`,
      );
      try {
        const r = await recipe([file, '--json', '--dry-run', '--no-journal'], {
          CONNECTOR_API_URL: server.url,
          CONNECTOR_CLIENT_ID: 'id-1',
          CONNECTOR_CLIENT_SECRET: 'shh-secret-1',
        });
        return { r, report: JSON.parse(r.stdout), executes: server.seen.filter((s) => s.path.endsWith('/execute')) };
      } finally {
        await server.close();
      }
    };
    // write: false → a read: sent under --dry-run, with no Idempotency-Key.
    const read = await serviceSays(false);
    expect(read.r.code).toBe(0);
    expect(read.executes).toHaveLength(1);
    expect(read.executes[0]?.headers['idempotency-key']).toBeUndefined();
    expect(read.report.outputs).toEqual({ url: 'https://files.example/export.csv' });
    expect(read.report.dry_run_writes ?? []).toEqual([]);
    // No write field (an older service) → the name rule: an unknown action is a write, not sent under --dry-run.
    const older = await serviceSays(undefined);
    expect(older.r.code).toBe(0);
    expect(older.executes).toHaveLength(0);
    expect(older.report.dry_run_writes).toHaveLength(1);
  }, 60_000);

  it('with no service configured, runs on the embedded service in the working directory', async () => {
    const cwd = mkdtempSync(join(tmpdir(), 'recipe-embedded-'));
    const r = await recipe([join(recipes, 'pipeline-report.yaml'), '--json'], {}, { cwd });
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/embedded service at http:\/\/127\.0\.0\.1:\d+ \(database \.recipe\/local\.db\)/);
    expect(existsSync(join(cwd, '.recipe/local.db'))).toBe(true);
    expect(JSON.parse(r.stdout).outputs.open_deals).toBeGreaterThan(0);
  }, 60_000);

  it('a recipe that makes no connector call starts no service and creates no database', async () => {
    const cwd = mkdtempSync(join(tmpdir(), 'recipe-no-service-'));
    writeFileSync(
      join(cwd, 'pure.yaml'),
      'version: 1\nname: pure\nsteps:\n  - id: four\n    transform: "${ 2 * 2 }"\noutputs:\n  four: "${ $four }"\n',
    );
    const r = await recipe(['pure.yaml', '--json'], {}, { cwd });
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).outputs).toEqual({ four: 4 });
    expect(r.stderr).not.toMatch(/embedded service/);
    expect(existsSync(join(cwd, '.recipe/local.db'))).toBe(false);
    const withDb = await recipe(['pure.yaml', '--db', 'data.db', '--json'], {}, { cwd });
    expect(withDb.code, withDb.stderr).toBe(0);
    expect(withDb.stderr).toContain('--db: not opened, the recipe makes no connector call');
    expect(existsSync(join(cwd, 'data.db'))).toBe(false);
  }, 60_000);
});
