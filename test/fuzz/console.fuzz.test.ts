import { cpSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildConsoleApp } from '../../src/console/server.js';

/**
 * Property-based fuzzing of the web console's HTTP layer (inject): malformed percent-encoding, hostile refs
 * and run ids, prototype names, and the token redirect. Every answer is below 500; every JSON error is the
 * console's {message, error_code}; a redirect never names another host. Deterministic (fixed seed), bounded
 * by run count and time.
 */
const SEED = 20261127;
const opts = { seed: SEED, numRuns: 150, interruptAfterTimeLimit: 4_000 };
const TOKEN = 'a-long-enough-console-token';
const repo = new URL('../../', import.meta.url).pathname;

let dir: string;
let open: FastifyInstance;
let guarded: FastifyInstance;

/** Below 500 (but the documented 503 of a console without a journal); JSON errors as {message, error_code}. */
function expectShape(res: LightMyRequestResponse, what: string): void {
  const noJournal = res.statusCode === 503 && res.body.includes('"journal_unavailable"');
  if (!noJournal) expect(res.statusCode, `${what}: ${res.body.slice(0, 200)}`).toBeLessThan(500);
  if (res.statusCode < 400 || !String(res.headers['content-type']).startsWith('application/json')) return;
  const body = JSON.parse(res.body) as Record<string, unknown>;
  expect(Object.keys(body).sort(), what).toEqual(['error_code', 'message']);
  expect(body.error_code, what).toMatch(/^[a-z_]+$/);
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'recipe-console-fuzz-'));
  mkdirSync(join(dir, 'recipes'));
  cpSync(join(repo, 'test/console/fixtures/lib/count.yaml'), join(dir, 'recipes/count.yaml'));
  const base = { cwd: dir, recipeFolders: ['recipes'], version: 'fuzz' };
  open = await buildConsoleApp(base);
  guarded = await buildConsoleApp({ ...base, token: TOKEN });
});
afterAll(async () => {
  await open?.close();
  await guarded?.close();
  rmSync(dir, { recursive: true, force: true });
});

const hostile = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 20 }).map(encodeURIComponent),
  fc.string({ maxLength: 12 }).map((s) => `${encodeURIComponent(s)}%`),
  fc.constantFrom('%E0%A4%A', '%ZZ', '%C3', '%ED%A0%80', '%00', '..%2F..%2Fetc%2Fpasswd', '%2F%2Fevil.example'),
  fc.constantFrom('__proto__', 'constructor', 'toString', 'hasOwnProperty', '..', '.', '~', '\\'),
);

describe('console fuzz', () => {
  it('hostile paths, run ids, refs and queries: below 500, errors in the console shape', async () => {
    const route = fc.constantFrom(
      '/api/runs/',
      '/api/runs/x/requests?after_seq=',
      '/api/runs?status=',
      '/api/runs?before=',
      '/api/recipes/graph?ref=',
      '/recipes/',
      '/runs/',
      '/api/',
      '/',
    );
    await fc.assert(
      fc.asyncProperty(route, hostile, async (r, h) => {
        const res = await open.inject({ url: r + h, headers: { host: '127.0.0.1' } });
        expectShape(res, r + h);
      }),
      opts,
    );
  });

  it('the token redirect names a path on the console only, whatever the path', async () => {
    const path = fc.oneof(
      fc.array(fc.constantFrom('/', '\\', '.', '..', '//', 'evil.example', '%2F', '%5C', 'x', '@', ':'), {
        maxLength: 8,
      }),
      fc.array(fc.string({ maxLength: 6 }).map(encodeURIComponent), { maxLength: 4 }),
    );
    await fc.assert(
      fc.asyncProperty(path, async (parts) => {
        const url = `/${parts.join('')}?token=${TOKEN}`;
        // inject parses the URL itself and throws on what a browser would not send either (`/\\`): raw
        // sockets cover those (test/console/hardening.test.ts).
        fc.pre(URL.canParse(url, 'http://localhost'));
        const res = await guarded.inject({ url, headers: { host: 'console.example' } });
        expectShape(res, url);
        if (res.statusCode !== 303) return;
        const location = String(res.headers.location);
        expect(location, url).toMatch(/^\/(?![/\\])/);
        expect(new URL(location, 'http://console.example').host, url).toBe('console.example');
        expect(location, url).not.toContain(TOKEN);
      }),
      opts,
    );
  });
});
