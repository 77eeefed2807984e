import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RECIPE_BIN, runCli } from '../../cli/cli-process.js';
import type { CaseFile, RoutedCase, ServerAnswer, ServerRoute } from './case-file.js';
import { describeMismatches, match } from './match.js';
import { writeRecipe } from './via-test.js';

/** A request the scripted server saw. */
interface Received {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: unknown;
}

/** A plain HTTP server answering each route's answers in turn (the last repeats); records every request. */
async function startScriptedServer(routes: readonly ServerRoute[]) {
  const received: Received[] = [];
  const turns = new Map<ServerRoute, number>();
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const type = String(req.headers['content-type'] ?? '');
      let body: unknown = text;
      if (type.startsWith('application/json') && text) body = JSON.parse(text);
      const path = req.url ?? '';
      received.push({ method: req.method ?? '', path, headers: req.headers, body });
      const route = routes.find(
        (r) => (!r.path || r.path === path.split('?')[0]) && (!r.method || r.method === req.method),
      );
      const list: ServerAnswer[] = route ? [route.respond].flat() : [{ status: 404, body: 'no route' }];
      const n = route ? (turns.get(route) ?? 0) : 0;
      if (route) turns.set(route, n + 1);
      const answer = list[Math.min(n, list.length - 1)]!;
      if (answer.hang) return;
      const raw = answer.body ?? (answer.status === 204 ? '' : { ok: true });
      const out = typeof raw === 'string' ? raw : JSON.stringify(raw);
      res.writeHead(answer.status ?? 200, {
        'content-type': typeof raw === 'string' ? 'text/plain; charset=utf-8' : 'application/json',
        'content-length': Buffer.byteLength(out),
        ...answer.headers,
      });
      res.end(out);
    });
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  const port = (server.address() as AddressInfo).port;
  const close = () =>
    new Promise<void>((ok) => {
      server.closeAllConnections();
      server.close(() => ok());
    });
  return { url: `http://127.0.0.1:${port}`, port, received, close };
}

const CREDENTIALS = { CONNECTOR_CLIENT_ID: 'cases-client', CONNECTOR_CLIENT_SECRET: 'cases-secret-0123456789' };

/**
 * One `recipe serve` per dataset (a fixture file, or the demo seed), started on first use and shared by the
 * `run`-route cases on that data: starting the embedded service costs each `recipe run` about twice the rest
 * of its work. A shared service keeps what a case writes, so these cases must not change connector data (the
 * `test` route gives every case fresh data).
 */
export class ServicePool {
  private readonly started = new Map<string, Promise<{ url: string; child: ChildProcess }>>();

  /** The base URL of the service holding this case file's data. */
  async urlFor(file: CaseFile): Promise<string> {
    const key = file.fixtures ?? `seed:${file.seed ?? 'none'}`;
    let entry = this.started.get(key);
    if (!entry) {
      entry = this.start(file.fixtures ? ['--fixtures', file.fixtures] : ['--seed', file.seed ?? 'none']);
      this.started.set(key, entry);
    }
    return (await entry).url;
  }

  private start(data: string[]): Promise<{ url: string; child: ChildProcess }> {
    const child = spawn(process.execPath, [RECIPE_BIN, 'serve', '--port', '0', '--db', ':memory:', ...data], {
      env: { ...process.env, ...CREDENTIALS },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    return new Promise((resolve, reject) => {
      let out = '';
      child.stdout.on('data', (d: Buffer) => {
        out += d.toString();
        const url = /listening on (http:\/\/\S+)/.exec(out)?.[1];
        if (url) resolve({ url, child });
      });
      child.stderr.on('data', (d: Buffer) => (out += d.toString()));
      child.on('exit', (code) => reject(new Error(`recipe serve ${data.join(' ')} exited (${code}):\n${out}`)));
    });
  }

  /** Stops every service this pool started. */
  async close(): Promise<void> {
    for (const entry of this.started.values()) {
      const { child } = await entry.catch(() => ({ child: undefined }));
      if (child && child.exitCode === null) {
        const gone = new Promise((ok) => child.once('exit', ok));
        child.kill('SIGTERM');
        await gone;
      }
    }
  }
}

/** Replaces @SERVER@, @PORT@ and @DIR@ in every string of a value. */
function fill(value: unknown, vars: Record<string, string>): unknown {
  if (typeof value === 'string') return Object.entries(vars).reduce((s, [k, v]) => s.replaceAll(k, v), value);
  if (Array.isArray(value)) return value.map((v) => fill(v, vars));
  if (value && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, fill(v, vars)]));
  return value;
}

/** The outcome of one `recipe run --json`: the problems found (empty when every expectation held) and timing. */
export interface RunRouteResult {
  problems: string[];
  ms: number;
}

/**
 * Runs one case through `recipe run RECIPE --json --no-journal` against the embedded service (`recipe serve`)
 * holding the case file's fixtures (or the demo seed), and checks every expectation against the exit code, the JSON report, the log
 * (stderr), the files on disk and the scripted server's requests.
 */
export async function runRunRoute(c: RoutedCase, services: ServicePool): Promise<RunRouteResult> {
  const { file, spec } = c;
  const dir = mkdtempSync(join(tmpdir(), 'recipe-case-'));
  const server = spec.server ? await startScriptedServer(spec.server) : undefined;
  const vars: Record<string, string> = server ? { '@SERVER@': server.url, '@PORT@': String(server.port) } : {};
  try {
    writeRecipe(dir, file, (t) => fill(t, { ...vars, '@DIR@': dir }) as string);
    const args = ['run', 'recipe.yaml', '--json', '--no-journal', '--no-env-file'];
    args.push('--base-url', await services.urlFor(file));
    const now = spec.now ?? file.now;
    if (now) args.push('--now', now);
    const inputs = { ...file.inputs, ...spec.inputs };
    if (Object.keys(inputs).length) {
      writeFileSync(join(dir, 'inputs.json'), JSON.stringify(inputs));
      args.push('--inputs', 'inputs.json');
    }
    args.push(...(spec.args ?? []));
    const started = Date.now();
    const { code, stdout, stderr } = await runCli(args, {
      cwd: dir,
      env: { ...file.secrets, ...spec.secrets, ...CREDENTIALS },
      timeoutMs: 120_000,
    });
    const ms = Date.now() - started;
    const expected = fill(spec.expect, { ...vars, '@DIR@': dir }) as Record<string, unknown>;
    const problems: string[] = [];
    let report: Record<string, unknown> = {};
    try {
      report = JSON.parse(stdout) as Record<string, unknown>;
    } catch {
      problems.push(`no JSON report on stdout (exit ${code}):\n${stdout}\n${stderr}`);
      return { problems, ms };
    }
    const check = async (what: string, exp: unknown, actual: unknown) => {
      const list = await match(exp, actual, what, { outputs: report.outputs });
      if (list.length) problems.push(describeMismatches(list));
    };
    if (report.status === 'invalid') problems.push(`the recipe is invalid: ${JSON.stringify(report)}`);
    const status = (expected.status as string | undefined) ?? (expected.error ? 'failed' : 'succeeded');
    await check('status', status === 'succeeded' ? 'ok' : 'failed', report.status);
    await check('exit_code', expected.exit_code ?? (status === 'succeeded' ? 0 : 1), code);
    if (expected.error !== undefined) {
      const exp = typeof expected.error === 'string' ? { code: expected.error } : expected.error;
      await check('error', exp, report.error);
    }
    if (expected.outputs !== undefined) await check('outputs', expected.outputs, report.outputs);
    if (expected.requests !== undefined) {
      const r = expected.requests as { count?: number; min?: number; max?: number };
      const n = report.requests as number;
      if (r.count !== undefined) await check('requests.count', r.count, n);
      if (r.min !== undefined && n < r.min) problems.push(`requests: ${n}, expected at least ${r.min}`);
      if (r.max !== undefined && n > r.max) problems.push(`requests: ${n}, expected at most ${r.max}`);
    }
    if (expected.report !== undefined) await check('report', expected.report, report);
    const lines = stderr.split('\n').map((l) => l.trimEnd());
    for (const line of (expected.logs as string[] | undefined) ?? [])
      if (!lines.includes(line)) problems.push(`log: no line ${JSON.stringify(line)} in:\n${stderr}`);
    for (const [pattern, n] of Object.entries((expected.log_count as Record<string, number> | undefined) ?? {})) {
      const count = lines.filter((l) => new RegExp(pattern).test(l)).length;
      if (count !== n) problems.push(`log_count ${pattern}: ${count} lines, expected ${n}`);
    }
    for (const secret of (expected.not_in_output as string[] | undefined) ?? [])
      if ((stdout + stderr).includes(secret)) problems.push(`not_in_output: ${JSON.stringify(secret)} was printed`);
    if (expected.received !== undefined) await check('received', expected.received, server?.received ?? []);
    for (const [path, exp] of Object.entries((expected.files as Record<string, unknown> | undefined) ?? {})) {
      const full = join(dir, path);
      if (!existsSync(full)) problems.push(`files: ${path} was not written`);
      else {
        const bytes = readFileSync(full);
        await check(`files.${path}`, exp, { bytes: bytes.length, text: bytes.toString('latin1') });
      }
    }
    for (const path of (expected.absent_files as string[] | undefined) ?? [])
      if (existsSync(join(dir, path))) problems.push(`absent_files: ${path} was written`);
    return { problems, ms };
  } finally {
    await server?.close();
  }
}
