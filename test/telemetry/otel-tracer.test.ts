import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadTracer, tracingEnabled } from '../../src/telemetry/index.js';
import { ITERATION_EVENTS, ITERATION_SPANS, tracesUrl } from '../../src/telemetry/otel-tracer.js';
import { startOtlpReceiver, type OtlpReceiver } from './otlp-receiver.js';

/** The OpenTelemetry tracer on its own, against an OTLP/HTTP receiver started here. */
const SECRET = 's3cr3t-value-never-exported';
const redact = (s: string): string => s.split(SECRET).join('***');

let receiver: OtlpReceiver;
beforeEach(async () => {
  receiver = await startOtlpReceiver();
});
afterEach(async () => {
  await receiver.close();
});

describe('enabling', () => {
  it('is off unless an OTLP endpoint is set, and off when the SDK is disabled', async () => {
    expect(tracingEnabled({})).toBe(false);
    expect(await loadTracer({}, () => undefined)).toBeUndefined();
    expect(tracingEnabled({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4318' })).toBe(true);
    expect(tracingEnabled({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://127.0.0.1:4318/v1/traces' })).toBe(true);
    expect(tracingEnabled({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://x', OTEL_SDK_DISABLED: 'true' })).toBe(false);
    expect(tracingEnabled({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://x', OTEL_TRACES_EXPORTER: 'none' })).toBe(false);
  });

  it('sends to the signal endpoint as given, else to the base endpoint + /v1/traces', () => {
    expect(tracesUrl({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://h:4318/' })).toBe('http://h:4318/v1/traces');
    expect(
      tracesUrl({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://h:4318', OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://t/x' }),
    ).toBe('http://t/x');
  });
});

describe('a run traced as spans', () => {
  it('has the run, steps, capped loop iterations and HTTP exchanges in one tree, with no secret', async () => {
    const tracer = await loadTracer(
      {
        OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint,
        OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
        OTEL_SERVICE_NAME: 'ops',
      },
      () => undefined,
      { workerId: 'host-a:4242' },
    );
    if (!tracer) throw new Error('tracing should be on');
    const run = tracer.startRun({ runId: 'r1', recipe: 'demo', file: 'recipes/demo.yaml', dryRun: false }, redact);
    const list = run.step({ id: 'deals', kind: 'paginate', file: 'recipes/demo.yaml', line: 5 });
    const url = new URL(`http://127.0.0.1:9/api/v1/integrations/connectors/c-123/execute`);
    const firstExchange = list.exchange({ method: 'POST', url, entity: 'deals', action: 'list', attempt: 1 });
    const traceparent = firstExchange.traceparent;
    firstExchange.end({ status: 503 });
    list.exchange({ method: 'POST', url, entity: 'deals', action: 'list', attempt: 2 }).end({ status: 200 });
    list.end({ status: 'ok' });
    const loop = run.step({ id: 'notes', kind: 'foreach', file: 'recipes/demo.yaml', line: 9 });
    const total = ITERATION_SPANS + 5;
    for (let i = 0; i < total; i++) {
      const it = loop.iteration(i);
      const create = it.step({ id: 'note', kind: 'execute', file: 'recipes/demo.yaml', line: 13 });
      create.exchange({ method: 'POST', url, entity: 'notes', action: 'create', attempt: 1 }).end({ status: 200 });
      create.end({ status: 'ok' });
      it.end({ status: 'ok' });
    }
    loop.end({ status: 'ok' });
    // An http step's URL is the recipe's own: the span is named by the method, secrets and credentials masked.
    const hook = run.step({ id: 'hook', kind: 'http', file: 'recipes/demo.yaml', line: 18 });
    const hookUrl = new URL(`https://bot:${SECRET}@hooks.example/services/${SECRET}?k=1`);
    hook.exchange({ method: 'POST', url: hookUrl, entity: 'http', action: 'POST', attempt: 1 }).end({ status: 200 });
    hook.end({ status: 'ok' });
    const boom = run.step({ id: 'check', kind: 'assert', file: 'recipes/demo.yaml', line: 20 });
    boom.end({ status: 'failed', error: { code: 'X002', message: `assertion failed: token ${SECRET} seen` } });
    run.end({ status: 'failed', error: { code: 'X002', message: `assertion failed: token ${SECRET} seen` } });
    await tracer.shutdown();

    const spans = receiver.spans();
    // Metrics go beside the traces, to their own signal path.
    expect(new Set(receiver.requests.map((r) => r.path))).toEqual(new Set(['/v1/traces', '/v1/metrics']));
    const byId = new Map(spans.map((s) => [s.spanId, s]));
    const parentName = (name: string): string[] =>
      spans.filter((s) => s.name === name).map((s) => byId.get(s.parentSpanId)?.name ?? '(root)');
    expect(new Set(spans.map((s) => s.traceId)).size).toBe(1);
    expect(parentName('run demo')).toEqual(['(root)']);
    expect(parentName('step deals')).toEqual(['run demo']);
    expect(parentName('step notes')).toEqual(['run demo']);
    expect(parentName('step check')).toEqual(['run demo']);
    // Iterations: spans up to the cap, then events on the loop span.
    expect(parentName('iteration')).toEqual(new Array(ITERATION_SPANS).fill('step notes'));
    expect(parentName('step note')).toEqual(new Array(ITERATION_SPANS).fill('iteration'));
    const loopSpan = spans.find((s) => s.name === 'step notes');
    expect(
      loopSpan?.events.filter((e) => e.name === 'iteration').map((e) => e.attributes['recipe.iteration.index']),
    ).toEqual([50, 51, 52, 53, 54]);
    expect(loopSpan?.attributes['recipe.iterations.traced']).toBe(ITERATION_SPANS);
    expect(ITERATION_EVENTS).toBeGreaterThan(5);
    // HTTP exchanges: client spans (kind 3) under their step, HTTP semantic conventions. Past the cap the
    // iterations have no span, but their requests do: under the loop's span, so none goes untraced.
    const exchanges = spans.filter((s) => s.kind === 3);
    expect(exchanges).toHaveLength(3 + total);
    expect(
      parentName('POST /api/v1/integrations/connectors/{id}/execute').filter((p) => p === 'step notes'),
    ).toHaveLength(5);
    // The traceparent sent with a request names that request's own span (W3C trace context).
    const firstSpan = exchanges.find((s) => s.attributes['http.response.status_code'] === 503);
    expect(traceparent).toBe(`00-${firstSpan?.traceId}-${firstSpan?.spanId}-01`);
    const posted = spans.find((s) => s.parentSpanId === spans.find((p) => p.name === 'step hook')?.spanId);
    expect(posted?.name).toBe('POST');
    expect(posted?.attributes['url.full']).toBe('https://hooks.example/services/***?k=1');
    expect(posted?.attributes['url.template']).toBeUndefined();
    expect(posted?.attributes['recipe.connector.entity']).toBeUndefined();
    const [first, second] = exchanges.filter((s) => s.attributes['recipe.connector.entity'] === 'deals');
    expect(first?.name).toBe('POST /api/v1/integrations/connectors/{id}/execute');
    expect(first?.attributes).toMatchObject({
      'http.request.method': 'POST',
      'http.response.status_code': 503,
      'error.type': '503',
      'server.address': '127.0.0.1',
      'server.port': 9,
      'url.full': url.href,
      'recipe.run_id': 'r1',
    });
    expect(first?.status.code).toBe(2);
    expect(second?.attributes['http.request.resend_count']).toBe(1);
    // Step attributes: recipe name, run id, step id, file:line.
    expect(spans.find((s) => s.name === 'step check')?.attributes).toMatchObject({
      'recipe.name': 'demo',
      'recipe.run_id': 'r1',
      'recipe.step.id': 'check',
      'recipe.step.kind': 'assert',
      'code.file.path': 'recipes/demo.yaml',
      'code.line.number': 20,
      'recipe.status': 'failed',
      'error.type': 'X002',
    });
    const root = spans.find((s) => s.name === 'run demo');
    expect(root?.status).toMatchObject({ code: 2, message: 'assertion failed: token *** seen' });
    expect(root?.resource['service.name']).toBe('ops');
    // Which process sent it: a fleet has many workers running the same recipes.
    expect(root?.resource).toMatchObject({ 'recipe.worker.id': 'host-a:4242', 'process.pid': process.pid });
    expect(root?.resource['host.name']).toBeTruthy();
    expect(root?.resource['service.instance.id']).toMatch(/^[0-9a-f-]{36}$/);
    // No secret anywhere in what was sent.
    for (const r of receiver.requests) expect(r.body.toString('utf8')).not.toContain(SECRET);
    // recipe.step.duration has a point for the step of every iteration, the untraced ones past the cap too.
    const stepPoints = receiver
      .metrics()
      .filter((p) => p.metric === 'recipe.step.duration' && p.attributes['recipe.step.kind'] === 'execute');
    expect(stepPoints.at(-1)?.value).toBe(total);
  });

  it("sends a worker's fleet metrics: the queue's depth read at export, lease takeovers", async () => {
    const tracer = await loadTracer(
      { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint, OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json' },
      () => undefined,
      { workerId: 'host-a:4242' },
    );
    if (!tracer?.fleet) throw new Error('metrics should be on');
    let reads = 0;
    tracer.fleet.observeQueue('recipe-runs', () => {
      reads++;
      return Promise.resolve({ waiting: 3, active: 1, delayed: 0, failed: 2 });
    });
    tracer.fleet.leaseTakenOver('recipe-runs');
    await tracer.shutdown();
    const points = receiver.metrics();
    const depth = (state: string) =>
      points.filter((p) => p.metric === 'recipe.queue.depth' && p.attributes['recipe.queue.state'] === state).at(-1);
    expect(reads).toBeGreaterThan(0);
    expect(depth('waiting')).toMatchObject({ value: 3, attributes: { 'messaging.destination.name': 'recipe-runs' } });
    expect([depth('active')?.value, depth('delayed')?.value, depth('failed')?.value]).toEqual([1, 0, 2]);
    expect(points.filter((p) => p.metric === 'recipe.lease.takeovers').at(-1)).toMatchObject({
      value: 1,
      attributes: { 'messaging.destination.name': 'recipe-runs' },
      resource: { 'recipe.worker.id': 'host-a:4242' },
    });
  });

  it('sends http/protobuf by default, with no secret in the bytes', async () => {
    const tracer = await loadTracer({ OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint }, () => undefined);
    if (!tracer) throw new Error('tracing should be on');
    const run = tracer.startRun({ runId: 'r2', recipe: 'demo', file: `f-${SECRET}.yaml`, dryRun: true }, redact);
    run.end({ status: 'failed', error: { code: 'X001', message: SECRET } });
    await tracer.shutdown();
    expect(receiver.requests.length).toBeGreaterThan(0);
    const traces = receiver.requests.filter((r) => r.path === '/v1/traces');
    expect(traces.length).toBeGreaterThan(0);
    for (const r of receiver.requests) {
      expect(r.contentType).toBe('application/x-protobuf');
      expect(r.body.includes(Buffer.from(SECRET))).toBe(false);
    }
    for (const r of traces) expect(r.body.includes(Buffer.from('run demo'))).toBe(true);
  });

  it('warns about a protocol it does not speak and sends http/protobuf', async () => {
    const warnings: string[] = [];
    const tracer = await loadTracer(
      { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint, OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc' },
      (m) => warnings.push(m),
    );
    tracer?.startRun({ runId: 'r3', recipe: 'demo', file: 'f.yaml', dryRun: false }, redact).end({ status: 'ok' });
    await tracer?.shutdown();
    expect(warnings).toEqual(['OTEL_EXPORTER_OTLP_PROTOCOL=grpc is not supported by recipe; sending http/protobuf']);
    expect(receiver.requests[0]?.contentType).toBe('application/x-protobuf');
  });
});
