import {
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  trace,
  type Attributes,
  type Span,
  type Tracer,
} from '@opentelemetry/api';
import { OTLPTraceExporter as JsonExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { OTLPTraceExporter as ProtobufExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BatchSpanProcessor, TracerProvider, type SpanExporter } from '@opentelemetry/sdk-trace';
import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { routeTemplateOf } from '../client/index.js';
import { createRunMetrics, type RunMetrics } from './otel-metrics.js';
import {
  type ExchangeInfo,
  type ExchangeSpan,
  type QueueDepth,
  type RunInfo,
  type RunTracer,
  type SpanOutcome,
  type StepInfo,
  type TraceSpan,
  type TracerIdentity,
} from './tracer.js';

/**
 * How often finished spans are sent (the SDK's default is 5 s). A process killed with SIGKILL loses the spans
 * that ended in its last interval; a graceful stop (SIGTERM, SIGINT, the end of the run) flushes them all.
 * OTEL_BSP_SCHEDULE_DELAY still wins.
 */
export const EXPORT_INTERVAL_MS = 500;

/** Iterations of one loop traced as spans (with everything inside them); the rest become events. */
export const ITERATION_SPANS = 50;
/** Iteration events recorded on one loop span past the spans; the rest are only counted. */
export const ITERATION_EVENTS = 1000;

/**
 * The OpenTelemetry run tracer: an OTLP/HTTP exporter (http/protobuf, the standard default, or
 * http/json) configured by the standard OTEL_EXPORTER_OTLP_* variables, a batch processor, and the
 * resource service.name (OTEL_SERVICE_NAME, default "recipe"). Spans are created with explicit parents,
 * so no global context manager is installed and nothing else in the process is traced by accident.
 */
export function createOtelTracer(
  env: Readonly<Record<string, string | undefined>>,
  warn: (message: string) => void,
  identity: TracerIdentity = {},
): RunTracer {
  const exporter = makeExporter(env, warn);
  const delay = Number(env.OTEL_BSP_SCHEDULE_DELAY);
  // Which process sent a span or a metric: a fleet has many workers, each with runs of the same recipes.
  const resource = resourceFromAttributes({
    'service.name': env.OTEL_SERVICE_NAME?.trim() || 'recipe',
    'service.instance.id': randomUUID(),
    'host.name': hostname(),
    'process.pid': process.pid,
    'telemetry.sdk.language': 'nodejs',
    ...(identity.workerId !== undefined ? { 'recipe.worker.id': identity.workerId } : {}),
  });
  const metrics = createRunMetrics(env, resource);
  const provider = new TracerProvider({
    resource,
    spanProcessors: [
      new BatchSpanProcessor({
        exporter,
        scheduledDelayMillis: Number.isFinite(delay) && delay > 0 ? delay : EXPORT_INTERVAL_MS,
      }),
    ],
  });
  const tracer = provider.getTracer('recipe');
  return {
    startRun(info: RunInfo, redact: (text: string) => string): TraceSpan {
      const runAttrs: Attributes = { 'recipe.name': info.recipe, 'recipe.run_id': info.runId };
      const span = tracer.startSpan(redact(`run ${info.recipe}`), {
        kind: SpanKind.INTERNAL,
        attributes: clean(
          {
            ...runAttrs,
            'recipe.file': info.file,
            'recipe.dry_run': info.dryRun,
            ...(info.attempt !== undefined ? { 'recipe.attempt': info.attempt } : {}),
          },
          redact,
        ),
      });
      metrics?.runStarted(info.recipe);
      const started = Date.now();
      return new OtelSpan(tracer, span, runAttrs, redact, metrics, (status) =>
        metrics?.runEnded(info.recipe, status, Date.now() - started),
      );
    },
    ...(metrics
      ? {
          fleet: {
            observeQueue: (queue: string, read: () => Promise<QueueDepth>) => metrics.observeQueue(queue, read),
            leaseTakenOver: (queue: string) => metrics.leaseTakenOver(queue),
          },
        }
      : {}),
    async shutdown(): Promise<void> {
      try {
        await Promise.all([provider.forceFlush(), metrics?.shutdown()]);
      } finally {
        await provider.shutdown();
      }
    },
  };
}

function makeExporter(
  env: Readonly<Record<string, string | undefined>>,
  warn: (message: string) => void,
): SpanExporter {
  const protocol = (env.OTEL_EXPORTER_OTLP_TRACES_PROTOCOL || env.OTEL_EXPORTER_OTLP_PROTOCOL || 'http/protobuf')
    .trim()
    .toLowerCase();
  const url = tracesUrl(env);
  const config = url !== undefined ? { url } : {};
  if (protocol === 'http/json') return new JsonExporter(config);
  if (protocol !== 'http/protobuf')
    warn(`OTEL_EXPORTER_OTLP_PROTOCOL=${protocol} is not supported by recipe; sending http/protobuf`);
  return new ProtobufExporter(config);
}

/** The traces URL: the signal-specific variable as is, else the base endpoint + /v1/traces (as the spec says). */
export function tracesUrl(env: Readonly<Record<string, string | undefined>>): string | undefined {
  const signal = env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT?.trim();
  if (signal) return signal;
  const base = env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim();
  if (!base) return undefined;
  return `${base.replace(/\/+$/, '')}/v1/traces`;
}

class OtelSpan implements TraceSpan {
  private iterationSpans = 0;
  private iterationEvents = 0;
  private untraced = 0;

  constructor(
    private readonly tracer: Tracer,
    private readonly span: Span,
    /** recipe.name and recipe.run_id, carried on every span so each can be found on its own. */
    private readonly runAttrs: Attributes,
    private readonly redact: (text: string) => string,
    private readonly metrics: RunMetrics | undefined,
    /** Told the span's status when it ends: a run's or a step's duration metric. */
    private readonly onEnd?: (status: SpanOutcome['status']) => void,
  ) {}

  step(info: StepInfo): TraceSpan {
    const started = Date.now();
    return this.child(
      `step ${info.id}`,
      {
        'recipe.step.id': info.id,
        'recipe.step.kind': info.kind,
        'code.file.path': info.file,
        'code.line.number': info.line,
      },
      (status) => this.metrics?.stepEnded(info.kind, status, Date.now() - started),
    );
  }

  iteration(index: number): TraceSpan {
    if (this.iterationSpans < ITERATION_SPANS) {
      this.iterationSpans++;
      return this.child('iteration', { 'recipe.iteration.index': index });
    }
    const started = Date.now();
    return {
      ...this.untracedChild(),
      end: (outcome: SpanOutcome) => {
        if (this.iterationEvents >= ITERATION_EVENTS) {
          this.untraced++;
          return;
        }
        this.iterationEvents++;
        this.span.addEvent(
          'iteration',
          clean(
            {
              'recipe.iteration.index': index,
              'recipe.status': outcome.status,
              'recipe.duration_ms': Date.now() - started,
              ...(outcome.error ? { 'error.type': outcome.error.code } : {}),
            },
            this.redact,
          ),
        );
      },
    };
  }

  exchange(info: ExchangeInfo): ExchangeSpan {
    // The connector API's paths have a template (the connector id left out); an http step's URL is the
    // recipe's own, so its span is named by the method alone, as the HTTP conventions say without a template.
    const connectorApi = info.entity !== 'http';
    const template = connectorApi ? routeTemplateOf(info.url.pathname) : undefined;
    const port = info.url.port !== '' ? Number(info.url.port) : info.url.protocol === 'https:' ? 443 : 80;
    const span = this.tracer.startSpan(
      this.redact(template !== undefined ? `${info.method} ${template}` : info.method),
      {
        kind: SpanKind.CLIENT,
        attributes: clean(
          {
            ...this.runAttrs,
            'http.request.method': info.method,
            'url.full': withoutUserInfo(info.url),
            ...(template !== undefined ? { 'url.template': template } : {}),
            'server.address': info.url.hostname,
            'server.port': port,
            ...(connectorApi ? { 'recipe.connector.entity': info.entity, 'recipe.connector.action': info.action } : {}),
            ...(info.attempt > 1 ? { 'http.request.resend_count': info.attempt - 1 } : {}),
          },
          this.redact,
        ),
      },
      trace.setSpan(ROOT_CONTEXT, this.span),
    );
    const context = span.spanContext();
    return {
      traceparent: `00-${context.traceId}-${context.spanId}-${(context.traceFlags & 1).toString(16).padStart(2, '0')}`,
      end: (result) => {
        this.metrics?.exchangeEnded(connectorApi ? 'connector' : 'http', info.attempt, result);
        if ('status' in result) {
          span.setAttribute('http.response.status_code', result.status);
          if (result.status >= 400) {
            span.setAttribute('error.type', String(result.status));
            span.setStatus({ code: SpanStatusCode.ERROR });
          }
        } else {
          span.setAttribute('error.type', result.error);
          span.setStatus({ code: SpanStatusCode.ERROR, message: this.redact(result.error) });
        }
        span.end();
      },
    };
  }

  end(outcome: SpanOutcome): void {
    this.span.setAttribute('recipe.status', outcome.status);
    if (this.iterationSpans > 0 || this.iterationEvents > 0) {
      this.span.setAttribute('recipe.iterations.traced', this.iterationSpans);
      if (this.untraced > 0) this.span.setAttribute('recipe.iterations.untraced', this.untraced);
    }
    if (outcome.error) {
      const message = this.redact(outcome.error.message);
      this.span.addEvent('exception', { 'exception.type': outcome.error.code, 'exception.message': message });
      this.span.setAttribute('error.type', outcome.error.code);
    }
    if (outcome.status === 'failed' || outcome.status === 'interrupted')
      this.span.setStatus({
        code: SpanStatusCode.ERROR,
        ...(outcome.error ? { message: this.redact(outcome.error.message) } : {}),
      });
    this.span.end();
    this.onEnd?.(outcome.status);
  }

  /**
   * What an iteration past the cap (and every step inside it) gets: no span of its own, but its HTTP
   * exchanges are still client spans, under this loop's span, so a long loop (a resume's live part above
   * all) never sends requests no trace shows; and each step's duration is still a recipe.step.duration point,
   * so the metric counts every iteration's steps, not only the traced ones.
   */
  private untracedChild(onEnd?: (status: SpanOutcome['status']) => void): TraceSpan {
    return {
      step: (info) => {
        const started = Date.now();
        return this.untracedChild((status) => this.metrics?.stepEnded(info.kind, status, Date.now() - started));
      },
      iteration: () => this.untracedChild(),
      exchange: (info) => this.exchange(info),
      end: (outcome) => onEnd?.(outcome.status),
    };
  }

  private child(name: string, attrs: Attributes, onEnd?: (status: SpanOutcome['status']) => void): TraceSpan {
    const span = this.tracer.startSpan(
      this.redact(name),
      { kind: SpanKind.INTERNAL, attributes: clean({ ...this.runAttrs, ...attrs }, this.redact) },
      trace.setSpan(ROOT_CONTEXT, this.span),
    );
    return new OtelSpan(this.tracer, span, this.runAttrs, this.redact, this.metrics, onEnd);
  }
}

/** The URL without user:password@ (the HTTP conventions leave credentials out of url.full). */
function withoutUserInfo(url: URL): string {
  if (url.username === '' && url.password === '') return url.href;
  const copy = new URL(url.href);
  copy.username = '';
  copy.password = '';
  return copy.href;
}

/** Attributes with every string value (and key) passed through the redactor. */
function clean(attrs: Attributes, redact: (text: string) => string): Attributes {
  const out: Attributes = {};
  for (const [k, v] of Object.entries(attrs)) out[redact(k)] = typeof v === 'string' ? redact(v) : v;
  return out;
}
