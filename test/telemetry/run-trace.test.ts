import { existsSync, mkdtempSync, readFileSync, rmSync, unlinkSync } from 'node:fs';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, type RunningService } from '../../src/index.js';
import { recipeCli } from '../console/make-journal.js';
import { startOtlpReceiver, type OtlpReceiver, type ReceivedSpan } from './otlp-receiver.js';

/**
 * `recipe run` and `recipe resume` of a shipped recipe (ticket-triage: a paginate, a foreach with two
 * writes per ticket) traced to an OTLP/HTTP receiver started here. The service sits behind a proxy that
 * answers the note's create with 503, so the run fails in its loop after retries. The client secret and
 * every access token the proxy saw must appear nowhere in what the receiver got.
 */
const repo = new URL('../../', import.meta.url).pathname;
const CLIENT_SECRET = 'cs-trace-test-9d41f0b7c2e8a6';

let dir: string;
let service: RunningService;
let proxy: { url: string; tokens: Set<string>; traceparents: string[]; close(): Promise<void> };
let receiver: OtlpReceiver;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'recipe-trace-'));
  service = await startService({
    fixtures: join(repo, 'recipes/crm-small.fixtures.yaml'),
    clientId: 'trace-test',
    clientSecret: CLIENT_SECRET,
    logLevel: 'silent',
  });
  proxy = await failingProxy(service.url);
  receiver = await startOtlpReceiver();
});
afterAll(async () => {
  await receiver?.close();
  await proxy?.close();
  await service?.close();
  rmSync(dir, { recursive: true, force: true });
});

function cli(args: string[], otel = true): ReturnType<typeof recipeCli> {
  const watch = join(dir, 'otel-modules.txt');
  return recipeCli(
    args,
    dir,
    {
      CONNECTOR_CLIENT_ID: 'trace-test',
      CONNECTOR_CLIENT_SECRET: CLIENT_SECRET,
      OTEL_WATCH_FILE: watch,
      ...(otel
        ? {
            OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint,
            OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
            OTEL_SERVICE_NAME: 'recipe-trace-test',
          }
        : {}),
    },
    ['--import', join(repo, 'test/telemetry/fixtures/watch-otel.mjs')],
  );
}

/** The @opentelemetry modules the CLI processes resolved so far. */
function otelModules(): string[] {
  const file = join(dir, 'otel-modules.txt');
  return existsSync(file) ? readFileSync(file, 'utf8').split('\n').filter(Boolean) : [];
}

/** The spans of one trace as a tree of names, children in start order. */
function tree(spans: ReceivedSpan[], root: ReceivedSpan): unknown {
  const kids = spans.filter((s) => s.parentSpanId === root.spanId).map((s) => tree(spans, s));
  return kids.length > 0 ? { [root.name]: kids } : root.name;
}

describe('a traced run of a shipped recipe', () => {
  let runId = '';

  it('sends the run, its steps, the loop iteration and every HTTP exchange as one trace', async () => {
    const r = await cli([
      'run',
      join(repo, 'recipes/ticket-triage.yaml'),
      '--base-url',
      proxy.url,
      '--journal',
      'runs.db',
      '--json',
      // Attempts only: the proxy answers 503 for good, which the default max_duration (10m) would wait out.
      '--retry-for',
      '0',
    ]);
    expect(r.code, r.stderr).toBe(1);
    runId = (JSON.parse(r.stdout) as { run_id: string }).run_id;
    const spans = receiver.spans();
    const roots = spans.filter((s) => s.parentSpanId === '');
    expect(roots.map((s) => s.name)).toEqual(['run ticket-triage']);
    const root = roots[0] as ReceivedSpan;
    expect(new Set(spans.map((s) => s.traceId))).toEqual(new Set([root.traceId]));
    const execute = 'POST /api/v1/integrations/connectors/{id}/execute';
    expect(tree(spans, root)).toEqual({
      'run ticket-triage': [
        { 'step tickets': [execute] },
        'step unowned',
        {
          'step triaged': [
            {
              iteration: [{ 'step execute@34': [execute] }, { 'step note': [execute, execute, execute, execute] }],
            },
          ],
        },
      ],
    });
    expect(root.resource['service.name']).toBe('recipe-trace-test');
    expect(root.attributes).toMatchObject({
      'recipe.name': 'ticket-triage',
      'recipe.run_id': runId,
      'recipe.attempt': 1,
      'recipe.status': 'failed',
      'error.type': 'C005',
    });
    expect(root.status.code).toBe(2);
    const note = spans.find((s) => s.name === 'step note');
    expect(note?.attributes).toMatchObject({
      'recipe.run_id': runId,
      'recipe.step.id': 'note',
      'recipe.step.kind': 'execute',
      // The file as every diagnostic names it: relative to the working directory of the run.
      'code.file.path': relative(dir, join(repo, 'recipes/ticket-triage.yaml')),
      'code.line.number': 40,
      'recipe.status': 'failed',
      'error.type': 'C005',
    });
    // The note's create: four exchanges (three re-sends) answered 503, HTTP semantic conventions.
    const sends = spans.filter((s) => s.parentSpanId === note?.spanId);
    expect(
      sends.map((s) => [s.attributes['http.response.status_code'], s.attributes['http.request.resend_count']]),
    ).toEqual([
      [503, undefined],
      [503, 1],
      [503, 2],
      [503, 3],
    ]);
    expect(sends[0]?.kind).toBe(3);
    expect(sends[0]?.attributes).toMatchObject({
      'http.request.method': 'POST',
      'url.template': '/api/v1/integrations/connectors/{id}/execute',
      'server.address': '127.0.0.1',
      'error.type': '503',
      'recipe.connector.entity': 'notes',
      'recipe.connector.action': 'create',
    });
    expect(spans.find((s) => s.name === 'iteration')?.attributes['recipe.iteration.index']).toBe(0);
    // The connector API got each exchange's W3C trace context: its spans can join this trace.
    for (const send of sends) expect(proxy.traceparents).toContain(`00-${send.traceId}-${send.spanId}-01`);
  });

  it('sends the metrics beside the traces: runs by status, durations, requests and retries by status', () => {
    const points = receiver.metrics();
    // Cumulative sums: the last point of a series holds its total.
    const last = (metric: string, match: Record<string, unknown> = {}) =>
      points
        .filter((p) => p.metric === metric && Object.entries(match).every(([k, v]) => p.attributes[k] === v))
        .at(-1);
    expect(last('recipe.runs.started', { 'recipe.name': 'ticket-triage' })?.value).toBe(1);
    expect(last('recipe.runs.finished', { 'recipe.name': 'ticket-triage', 'recipe.status': 'failed' })?.value).toBe(1);
    expect(last('recipe.run.duration', { 'recipe.status': 'failed' })).toMatchObject({ unit: 's', value: 1 });
    expect(last('recipe.step.duration', { 'recipe.step.kind': 'foreach' })?.value).toBeGreaterThanOrEqual(1);
    // The proxy answers every notes.create 503: re-sent, each a request and a retry with its status.
    expect(last('recipe.requests', { 'http.response.status_code': 200 })?.value).toBeGreaterThan(0);
    const failed = last('recipe.requests', { 'http.response.status_code': 503 })?.value ?? 0;
    const resent = last('recipe.request.retries', { 'http.response.status_code': 503 })?.value ?? 0;
    expect(resent).toBeGreaterThan(0);
    expect(failed).toBeGreaterThan(resent);
    expect(last('recipe.requests')?.resource).toMatchObject({ 'service.name': 'recipe-trace-test' });
  });

  it('traces its resume as attempt 2 of the same run id', async () => {
    const before = receiver.spans().length;
    const r = await cli(['resume', runId, '--base-url', proxy.url, '--journal', 'runs.db', '--json']);
    expect(r.code, r.stderr).toBe(1);
    const root = receiver
      .spans()
      .slice(before)
      .find((s) => s.parentSpanId === '');
    expect(root?.attributes).toMatchObject({ 'recipe.run_id': runId, 'recipe.attempt': 2, 'recipe.status': 'failed' });
  });

  it('sends nothing, and does not load OpenTelemetry, without the OTLP variables', async () => {
    expect(otelModules()).toContain('@opentelemetry/sdk-trace');
    unlinkSync(join(dir, 'otel-modules.txt'));
    const before = receiver.requests.length;
    const r = await cli(
      ['run', join(repo, 'recipes/ticket-triage.yaml'), '--base-url', proxy.url, '--no-journal'],
      false,
    );
    // The first run assigned the ticket: nothing is left to triage, the run succeeds.
    expect(r.code, r.stderr).toBe(0);
    expect(receiver.requests.length).toBe(before);
    expect(otelModules()).toEqual([]);
  });

  it('never sends the client secret or an access token', () => {
    expect(receiver.requests.length).toBeGreaterThan(0);
    expect(proxy.tokens.size).toBeGreaterThan(0);
    for (const req of receiver.requests) {
      const body = req.body.toString('utf8');
      expect(body).not.toContain(CLIENT_SECRET);
      for (const token of proxy.tokens) expect(body).not.toContain(token);
    }
  });
});

/**
 * A proxy in front of the service that answers every notes.create with 503 (a write the client re-sends,
 * the service honouring Idempotency-Key) and remembers the bearer tokens it saw.
 */
async function failingProxy(
  target: string,
): Promise<{ url: string; tokens: Set<string>; traceparents: string[]; close(): Promise<void> }> {
  const tokens = new Set<string>();
  const traceparents: string[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const auth = req.headers.authorization;
      if (typeof auth === 'string' && auth.startsWith('Bearer ')) tokens.add(auth.slice(7));
      if (typeof req.headers.traceparent === 'string') traceparents.push(req.headers.traceparent);
      if (/"entity":"notes","action":"create"/.test(body.toString('utf8'))) {
        res.writeHead(503, { 'content-type': 'application/json' }).end('{"message":"try later","errors":[]}');
        return;
      }
      const out = request(new URL(req.url ?? '/', target), { method: req.method, headers: req.headers }, (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      });
      out.on('error', () => res.writeHead(502).end());
      out.end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    tokens,
    traceparents,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
