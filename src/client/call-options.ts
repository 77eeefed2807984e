import type { RetryPolicy } from './retry-policy.js';

/** Told about every request sent and every retry, so a run can count them per step. */
export interface CallObserver {
  request?(): void;
  /** An answer arrived (any status), for --verbose logs. */
  response?(info: { method: string; path: string; what: string; status: number; ms: number }): void;
  retry?(info: RetryInfo): void;
  /** The JSON text of an execute answer that became the envelope (the journal keeps it as is). */
  answer?(text: string): void;
  /** One HTTP exchange is about to be sent (a trace span); the handle returned is told how it ended. */
  exchange?(info: ExchangeStart): ExchangeHandle | undefined;
}

/** An exchange being traced: told how it ended; its W3C `traceparent`, sent with the request. */
export interface ExchangeHandle {
  end(end: ExchangeEnd): void;
  readonly traceparent?: string;
}

/** One retry about to wait. */
export interface RetryInfo {
  readonly attempt: number;
  readonly delayMs: number;
  readonly reason: string;
  /** Past max_attempts (waiting out an outage): how long since the first attempt, and the call's max_duration. */
  readonly waitingMs?: number;
  readonly retryForMs?: number;
}

/** What a trace needs of an exchange about to be sent (attempt 2… are re-sends). */
export interface ExchangeStart {
  readonly method: string;
  readonly url: URL;
  readonly entity: string;
  readonly action: string;
  readonly attempt: number;
}

/** How an exchange ended: an answer's status, or why there was none (timeout, connect, reset, aborted). */
export type ExchangeEnd = { readonly status: number } | { readonly error: string };

/** Per-call options. */
export interface CallOptions {
  readonly signal?: AbortSignal;
  /**
   * Sent as the Idempotency-Key header (writes). A service that honours it answers a repeat with the first
   * answer instead of writing again; once it has said so (Idempotent-Replayed), the client also retries
   * keyed writes after a lost answer, which it otherwise never does.
   */
  readonly idempotencyKey?: string;
  /** Replaces the client's retry policy for this call (a recipe step's `retry`). */
  readonly retry?: RetryPolicy;
  readonly observer?: CallObserver;
  /** Replaces the client's per-request timeout for this call (an http step's `timeout_ms`). */
  readonly requestTimeoutMs?: number;
}
