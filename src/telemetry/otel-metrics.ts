import type { Attributes, Counter, Histogram } from '@opentelemetry/api';
import type { FleetMetrics, QueueDepth } from './tracer.js';
import { OTLPExporterBase } from '@opentelemetry/otlp-exporter-base';
import { convertLegacyHttpOptions, createOtlpHttpExportDelegate } from '@opentelemetry/otlp-exporter-base/node-http';
import {
  JsonMetricsSerializer,
  MetricsExporterMetricsHelper,
  ProtobufMetricsSerializer,
} from '@opentelemetry/otlp-transformer';
import type { Resource } from '@opentelemetry/resources';
import {
  AggregationTemporality,
  MeterProvider,
  PeriodicExportingMetricReader,
  type PushMetricExporter,
  type ResourceMetrics,
} from '@opentelemetry/sdk-metrics';

/**
 * How often metrics are sent (OTEL_METRIC_EXPORT_INTERVAL wins; the SDK's default is 60 s). The end of a run
 * (and a worker's stop) flushes them; a process killed with SIGKILL loses what changed in its last interval.
 */
export const METRIC_EXPORT_INTERVAL_MS = 5000;

/**
 * What a run reports as OpenTelemetry metrics (the names follow the recipe.* namespace of the spans'
 * attributes; durations in seconds, as the semantic conventions ask):
 *   recipe.runs.started            counter   {recipe.name}
 *   recipe.runs.finished           counter   {recipe.name, recipe.status}
 *   recipe.run.duration            histogram {recipe.name, recipe.status}            s
 *   recipe.step.duration           histogram {recipe.step.kind, recipe.status}       s
 *   recipe.requests                counter   {http.response.status_code | error.type, recipe.request.kind}
 *   recipe.request.retries         counter   the re-sends among them, same attributes
 *   recipe.requests.rate_limited   counter   answers 429 (the client waits, then re-sends)
 * and a fleet worker's (FleetMetrics):
 *   recipe.queue.depth             gauge     {messaging.destination.name, recipe.queue.state}  jobs, read at export
 *   recipe.lease.takeovers         counter   {messaging.destination.name}  runs taken over from a dead holder
 */
export interface RunMetrics extends FleetMetrics {
  runStarted(recipe: string): void;
  runEnded(recipe: string, status: string, ms: number): void;
  stepEnded(kind: string, status: string, ms: number): void;
  exchangeEnded(kind: string, attempt: number, result: { readonly status: number } | { readonly error: string }): void;
  shutdown(): Promise<void>;
}

/** The metrics URL: the signal's variable as is, else the base endpoint + /v1/metrics; none without either. */
export function metricsUrl(env: Readonly<Record<string, string | undefined>>): string | undefined {
  const signal = env.OTEL_EXPORTER_OTLP_METRICS_ENDPOINT?.trim();
  if (signal) return signal;
  const base = env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim();
  if (!base) return undefined;
  return `${base.replace(/\/+$/, '')}/v1/metrics`;
}

/**
 * The run metrics over OTLP/HTTP beside the traces (same protocol variables, same resource), or undefined
 * when there is no metrics endpoint or OTEL_METRICS_EXPORTER=none.
 */
export function createRunMetrics(
  env: Readonly<Record<string, string | undefined>>,
  resource: Resource,
): RunMetrics | undefined {
  if ((env.OTEL_METRICS_EXPORTER ?? '').trim().toLowerCase() === 'none') return undefined;
  const url = metricsUrl(env);
  if (url === undefined) return undefined;
  const interval = Number(env.OTEL_METRIC_EXPORT_INTERVAL);
  const provider = new MeterProvider({
    resource,
    readers: [
      new PeriodicExportingMetricReader({
        exporter: new OtlpMetricExporter(url, protocolOf(env)),
        exportIntervalMillis: Number.isFinite(interval) && interval > 0 ? interval : METRIC_EXPORT_INTERVAL_MS,
      }),
    ],
  });
  const meter = provider.getMeter('recipe');
  const runsStarted = meter.createCounter('recipe.runs.started', {
    description: 'Runs (and resumed attempts) started',
  });
  const runsFinished = meter.createCounter('recipe.runs.finished', { description: 'Attempts ended, by status' });
  const runDuration = meter.createHistogram('recipe.run.duration', { unit: 's', description: 'Attempt durations' });
  const stepDuration = meter.createHistogram('recipe.step.duration', { unit: 's', description: 'Step durations' });
  const requests = meter.createCounter('recipe.requests', { description: 'HTTP exchanges, by answer status' });
  const retries = meter.createCounter('recipe.request.retries', { description: 'Re-sent HTTP exchanges' });
  const limited = meter.createCounter('recipe.requests.rate_limited', { description: 'Answers 429' });
  const takeovers = meter.createCounter('recipe.lease.takeovers', {
    description: 'Runs a worker took over after their holder stopped renewing its lease',
  });
  // Read when metrics are exported, not kept up to date: the queue is the truth, and reading it costs one call.
  const queues = new Map<string, () => Promise<QueueDepth>>();
  meter
    .createObservableGauge('recipe.queue.depth', { unit: '{job}', description: 'Jobs of the queue by state' })
    .addCallback(async (result) => {
      for (const [queue, read] of queues) {
        let depth: QueueDepth;
        try {
          depth = await read();
        } catch {
          continue; // the store unreachable for a moment: no point rather than a wrong one
        }
        for (const [state, n] of Object.entries(depth))
          result.observe(n, { 'messaging.destination.name': queue, 'recipe.queue.state': state });
      }
    });
  const add = (c: Counter, attrs: Attributes): void => c.add(1, attrs);
  const seconds = (h: Histogram, ms: number, attrs: Attributes): void => h.record(Math.max(0, ms) / 1000, attrs);
  return {
    runStarted: (recipe) => add(runsStarted, { 'recipe.name': recipe }),
    runEnded(recipe, status, ms) {
      const attrs = { 'recipe.name': recipe, 'recipe.status': status };
      add(runsFinished, attrs);
      seconds(runDuration, ms, attrs);
    },
    stepEnded: (kind, status, ms) => seconds(stepDuration, ms, { 'recipe.step.kind': kind, 'recipe.status': status }),
    exchangeEnded(kind, attempt, result) {
      const attrs: Attributes = {
        'recipe.request.kind': kind,
        ...('status' in result ? { 'http.response.status_code': result.status } : { 'error.type': result.error }),
      };
      add(requests, attrs);
      if (attempt > 1) add(retries, attrs);
      if ('status' in result && result.status === 429) add(limited, attrs);
    },
    observeQueue: (queue, read) => queues.set(queue, read),
    leaseTakenOver: (queue) => add(takeovers, { 'messaging.destination.name': queue }),
    async shutdown() {
      try {
        await provider.forceFlush();
      } finally {
        await provider.shutdown();
      }
    },
  };
}

function protocolOf(env: Readonly<Record<string, string | undefined>>): 'json' | 'protobuf' {
  const p = (env.OTEL_EXPORTER_OTLP_METRICS_PROTOCOL || env.OTEL_EXPORTER_OTLP_PROTOCOL || 'http/protobuf')
    .trim()
    .toLowerCase();
  return p === 'http/json' ? 'json' : 'protobuf';
}

/**
 * An OTLP/HTTP metric exporter, made of the same parts the trace exporters are (otlp-exporter-base and
 * otlp-transformer): the package's dependencies hold no metric exporter of their own. Cumulative temporality,
 * the OTLP default.
 */
class OtlpMetricExporter extends OTLPExporterBase<ResourceMetrics> implements PushMetricExporter {
  constructor(url: string, protocol: 'json' | 'protobuf') {
    super(
      createOtlpHttpExportDelegate(
        convertLegacyHttpOptions({ url }, 'METRICS', 'v1/metrics', {
          'Content-Type': protocol === 'json' ? 'application/json' : 'application/x-protobuf',
        }),
        protocol === 'json' ? JsonMetricsSerializer : ProtobufMetricsSerializer,
        'otlp_http_metric_exporter',
        MetricsExporterMetricsHelper,
        undefined,
      ),
    );
  }

  selectAggregationTemporality(): AggregationTemporality {
    return AggregationTemporality.CUMULATIVE;
  }
}
