/**
 * The tracing interface run/ and client/ call (house rule 4: OpenTelemetry itself is used only in
 * otel-tracer.ts, loaded only when enabled). Every method is cheap and synchronous; a span's attributes
 * are redacted by the implementation, so callers pass what they have.
 */

/** What identifies a step in a trace. */
export interface StepInfo {
  /** The step's id, or kind@line. */
  readonly id: string;
  readonly kind: string;
  readonly file: string;
  readonly line: number;
}

/** One HTTP exchange with the connector API (one attempt: a retry is another exchange). */
export interface ExchangeInfo {
  readonly method: string;
  readonly url: URL;
  /** The entity and action of an execute, or what else the call is (token exchange, lookup, inspect). */
  readonly entity: string;
  readonly action: string;
  /** 1 for the first attempt; a re-send is attempt 2, 3, ... */
  readonly attempt: number;
}

/** How a span ended. */
export interface SpanOutcome {
  /** ok; failed; continued (failed, on_error: continue); skipped (`when` was false); interrupted. */
  readonly status: 'ok' | 'failed' | 'continued' | 'skipped' | 'interrupted';
  readonly error?: { readonly code: string; readonly message: string };
}

/** A span of a run: the run itself, a step, or one iteration of a loop. */
export interface TraceSpan {
  /** A child span for one run of a step. */
  step(info: StepInfo): TraceSpan;
  /** A child span for iteration `index` of this (loop) step; past a cap, an event on this span instead. */
  iteration(index: number): TraceSpan;
  /** A client span for one HTTP exchange under this span. */
  exchange(info: ExchangeInfo): ExchangeSpan;
  end(outcome: SpanOutcome): void;
}

/** The span of one HTTP exchange. */
export interface ExchangeSpan {
  /** The answer's status, or what went wrong before one came (timeout, connect, reset, aborted). */
  end(result: { readonly status: number } | { readonly error: string }): void;
  /** The W3C trace context of this exchange (`00-<trace id>-<span id>-<flags>`), sent as `traceparent`. */
  readonly traceparent?: string;
}

/** What a run is, for its root span. */
export interface RunInfo {
  readonly runId: string;
  readonly recipe: string;
  readonly file: string;
  readonly dryRun: boolean;
  /** The journal's attempt: 1 for the run, 2… for its resumes (the run id stays the same). */
  readonly attempt?: number;
}

/** Who sends the spans, added to the trace's resource (a fleet worker says which one it is). */
export interface TracerIdentity {
  readonly workerId?: string;
}

/** Makes run spans and sends them; shutdown() flushes what is left (the CLI awaits it before exiting). */
export interface RunTracer {
  /** The root span of a run; `redact` masks secret values in every attribute and event of its tree. */
  startRun(info: RunInfo, redact: (text: string) => string): TraceSpan;
  /** A fleet worker's own metrics (queue depth, lease takeovers); undefined when metrics are off. */
  readonly fleet?: FleetMetrics;
  shutdown(): Promise<void>;
}

/** Jobs of a queue by state, as the queue counts them. */
export type QueueDepth = Readonly<Record<'waiting' | 'active' | 'delayed' | 'failed', number>>;

/** What a fleet worker reports beside its runs' metrics. */
export interface FleetMetrics {
  /** Reads the queue's depth each time metrics are exported (an observable gauge); a failed read is skipped. */
  observeQueue(queue: string, read: () => Promise<QueueDepth>): void;
  /** This worker took over a run whose holder's lease ran out (the holder died). */
  leaseTakenOver(queue: string): void;
}

/** A span that records nothing: what a loop's iterations past the cap (and everything inside them) get. */
export const NO_SPAN: TraceSpan = {
  step: () => NO_SPAN,
  iteration: () => NO_SPAN,
  exchange: () => NO_EXCHANGE,
  end: () => undefined,
};

const NO_EXCHANGE: ExchangeSpan = { end: () => undefined };
