import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../cli/cli-process.js';
import { startOtlpReceiver, type OtlpReceiver } from './otlp-receiver.js';

/**
 * The trace of an attempt that is killed: `recipe run` sends an http POST per item to a slow target here
 * (every request carries a W3C traceparent), and is SIGKILLed mid-loop. Spans are exported every 500 ms, so
 * the receiver already holds the spans of requests that ended before the last interval; the test counts
 * how many of the requests the target answered have no span (the loss docs/tracing.md states).
 */
let dir: string;
let receiver: OtlpReceiver;
let target: { url: string; seen: IncomingHttpHeaders[]; answered: number; close(): Promise<void> };

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'recipe-attempt-trace-'));
  receiver = await startOtlpReceiver();
  target = await slowTarget(50);
});
afterAll(async () => {
  await receiver?.close();
  await target?.close();
  rmSync(dir, { recursive: true, force: true });
});

const recipe = (url: string) => `version: 1
name: slow-hooks
steps:
  - id: sent
    foreach: "\${ [1..200] }"
    as: i
    steps:
      - http: { method: POST, url: "${url}/hook", json: { i: "\${ $i }" } }
`;

describe('the trace of a killed attempt', () => {
  it('keeps the spans exported before the kill, each request traced under its traceparent', async () => {
    const file = join(dir, 'slow-hooks.yaml');
    writeFileSync(file, recipe(target.url));
    let killedAt = -1;
    const r = await runCli(['run', file, '--no-journal'], {
      cwd: dir,
      env: {
        OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint,
        OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
      },
      timeoutMs: 60_000,
      onStart: (child) => {
        const poll = setInterval(() => {
          // Well into the loop, and past several export intervals: kill it without a chance to flush.
          if (target.answered >= 40) {
            clearInterval(poll);
            killedAt = target.answered;
            child.kill('SIGKILL');
          }
        }, 20);
      },
    });
    expect(r.code).toBeNull();
    expect(killedAt).toBeGreaterThanOrEqual(40);
    await new Promise((resolve) => setTimeout(resolve, 300));
    const clientSpans = receiver.spans().filter((s) => s.kind === 3);
    // Spans of the killed attempt reached the receiver: most of its requests, not none.
    expect(clientSpans.length).toBeGreaterThan(0);
    expect(clientSpans.length).toBeLessThanOrEqual(killedAt);
    // Each request's traceparent names a span the receiver got (or one lost with the kill): same trace.
    const traceparents = target.seen.map((h) => h.traceparent);
    expect(traceparents.every((t) => typeof t === 'string' && /^00-[0-9a-f]{32}-[0-9a-f]{16}-01$/.test(t))).toBe(true);
    const traceIds = new Set(traceparents.map((t) => String(t).split('-')[1]));
    expect(traceIds.size).toBe(1);
    for (const span of clientSpans) expect(traceparents).toContain(`00-${span.traceId}-${span.spanId}-01`);
    // What the kill lost (docs/tracing.md): at most the requests answered in the last export interval.
    expect(killedAt - clientSpans.length).toBeLessThan(killedAt);
  }, 90_000);
});

/** An http target that answers every request after `delayMs` and keeps each request's headers. */
async function slowTarget(delayMs: number) {
  const state = { url: '', seen: [] as IncomingHttpHeaders[], answered: 0, close: async () => undefined };
  const server: Server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      state.seen.push(req.headers);
      setTimeout(() => {
        state.answered++;
        res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
      }, delayMs);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  state.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  state.close = () =>
    new Promise<undefined>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve(undefined));
    });
  return state;
}
