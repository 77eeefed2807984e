/** telemetry/: traces of runs (OpenTelemetry, loaded only when OTEL_EXPORTER_OTLP_*ENDPOINT is set). */
export { loadTracer, tracingEnabled, OTEL_ENDPOINT_VARIABLES } from './load.js';
export { NO_SPAN } from './tracer.js';
export type {
  ExchangeInfo,
  ExchangeSpan,
  FleetMetrics,
  QueueDepth,
  RunInfo,
  RunTracer,
  SpanOutcome,
  StepInfo,
  TraceSpan,
  TracerIdentity,
} from './tracer.js';
