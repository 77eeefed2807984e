import type { RunTracer, TracerIdentity } from './tracer.js';

/** The variables that turn tracing on (the standard OTLP exporter endpoint variables). */
export const OTEL_ENDPOINT_VARIABLES = ['OTEL_EXPORTER_OTLP_ENDPOINT', 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT'] as const;

/** True when the environment asks for traces: an OTLP endpoint is set, and the SDK is not disabled. */
export function tracingEnabled(env: Readonly<Record<string, string | undefined>>): boolean {
  if ((env.OTEL_SDK_DISABLED ?? '').trim().toLowerCase() === 'true') return false;
  if ((env.OTEL_TRACES_EXPORTER ?? '').trim().toLowerCase() === 'none') return false;
  return OTEL_ENDPOINT_VARIABLES.some((name) => (env[name] ?? '').trim() !== '');
}

/**
 * The run tracer the environment asks for, or undefined. OpenTelemetry is imported only here and only
 * when enabled, so a run without the variables does not load (or pay for) it.
 */
export async function loadTracer(
  env: Readonly<Record<string, string | undefined>>,
  warn: (message: string) => void,
  identity: TracerIdentity = {},
): Promise<RunTracer | undefined> {
  if (!tracingEnabled(env)) return undefined;
  const { createOtelTracer } = await import('./otel-tracer.js');
  return createOtelTracer(env, warn, identity);
}
