/**
 * The one retry policy of the engine: its type, its defaults, which outcomes are retried and how long to wait.
 * Every request a run sends goes through it (execute, paginate, download, inspect and lookups, in_doubt
 * lookups, http steps, the token exchange): the client applies it around each exchange, and a recipe step's
 * `retry:` is this same policy with some fields given (completed from the defaults by retryPolicyFrom).
 * Pure functions; the client supplies the clock, the random source and the sleep.
 */

import { parseDurationMs } from './duration.js';

/** How many times and how far apart: a recipe step's `retry`, camel-cased. */
export interface RetryPolicy {
  readonly maxAttempts: number;
  readonly initialDelayMs: number;
  readonly maxDelayMs: number;
  readonly factor: number;
  /** Full jitter: the delay is uniform in [0, computed]. Without it the computed delay is used. */
  readonly jitter: boolean;
  /**
   * `max_duration`: past maxAttempts, a transient failure (connection refused/reset, timeout, 429, 502, 503,
   * 504) is still retried until this long after the call's first attempt: an outage of a few minutes is waited
   * out instead of failing the run. 0: attempts only. Undefined: the run's default (runRetryPolicy); a client
   * used without a run counts attempts only.
   */
  readonly retryForMs?: number;
}

/**
 * Four attempts (three retries), 0.5 s doubling up to 20 s, full jitter: what a step without `retry:` gets,
 * and what completes one that gives only some fields. schemas/recipe.schema.json states the same defaults
 * (a test holds them equal).
 */
export const DEFAULT_RETRY: RetryPolicy = Object.freeze({
  maxAttempts: 4,
  initialDelayMs: 500,
  maxDelayMs: 20_000,
  factor: 2,
  jitter: true,
});

/**
 * A run's default `max_duration` (`--retry-for`, RECIPE_RETRY_FOR): ten minutes, about what a connector's
 * restart, a deploy or a failover takes, and short enough that a service that is really gone fails the run
 * the same hour. Temporal retries without limit by default; Step Functions has no time bound at all.
 */
export const DEFAULT_RETRY_FOR_MS = 600_000;

/** A recipe's `retry:` as written (the schema has checked the types; anything else is ignored). */
export interface RetryFields {
  readonly max_attempts?: unknown;
  readonly max_duration?: unknown;
  readonly initial_delay_ms?: unknown;
  readonly max_delay_ms?: unknown;
  readonly factor?: unknown;
  readonly jitter?: unknown;
}

/**
 * A `retry:` completed field by field from `base` (a step's from its recipe's top-level `retry:`, that one from
 * DEFAULT_RETRY). A block that gives `max_attempts` with no `max_duration` (its own or its recipe's) counts
 * attempts only (max_duration 0): the attempts it states are the limit, as before time-bounded retries existed.
 */
export function retryPolicyFrom(fields: RetryFields, base: RetryPolicy = DEFAULT_RETRY): RetryPolicy {
  const num = (v: unknown, d: number): number => (typeof v === 'number' ? v : d);
  const duration = typeof fields.max_duration === 'string' ? parseDurationMs(fields.max_duration) : undefined;
  const retryForMs = duration ?? base.retryForMs ?? (fields.max_attempts !== undefined ? 0 : undefined);
  return {
    maxAttempts: num(fields.max_attempts, base.maxAttempts),
    initialDelayMs: num(fields.initial_delay_ms, base.initialDelayMs),
    maxDelayMs: num(fields.max_delay_ms, base.maxDelayMs),
    factor: num(fields.factor, base.factor),
    jitter: typeof fields.jitter === 'boolean' ? fields.jitter : base.jitter,
    ...(retryForMs !== undefined ? { retryForMs } : {}),
  };
}

/** The policy a run's call uses: `policy` (the step's, else DEFAULT_RETRY) with the run's max_duration filled in. */
export function runRetryPolicy(policy: RetryPolicy | undefined, runRetryForMs: number | undefined): RetryPolicy {
  const p = policy ?? DEFAULT_RETRY;
  if (p.retryForMs !== undefined) return p;
  return { ...p, retryForMs: runRetryForMs ?? DEFAULT_RETRY_FOR_MS };
}

/** Whether an outcome is transient: the same request may well succeed later (an outage, a rate limit). */
export function isTransient(outcome: Outcome): boolean {
  return outcome.kind === 'network' || isRetryableStatus(outcome.status);
}

/** A Retry-After longer than this is not waited for: the call fails with the 429/503 instead of hanging. */
export const MAX_RETRY_AFTER_MS = 120_000;

/** Statuses that say "try again later": rate limited or a gateway/upstream failure. */
export function isRetryableStatus(status: number): boolean {
  return status === 429 || status === 502 || status === 503 || status === 504;
}

/** What went wrong with one exchange, as far as the retry decision cares. */
export type Outcome =
  | { readonly kind: 'status'; readonly status: number; readonly retryAfterMs?: number }
  /** The connection failed; `sent` is false when no byte of the request can have reached the server. */
  | { readonly kind: 'network'; readonly sent: boolean };

/**
 * Whether to retry after `attempt` (1-based) failed, `elapsedMs` after the call's first attempt: within
 * maxAttempts, or past them while a transient failure is within retryForMs. Writes that are not idempotent are
 * retried only when a repeat cannot duplicate: a 429 answer means the request was refused before any work, a
 * connect error means it never left; a reset or a 502/503/504 after sending might hide a write that happened.
 */
export function shouldRetry(
  outcome: Outcome,
  attempt: number,
  policy: RetryPolicy,
  safeToRepeat: boolean,
  elapsedMs = 0,
): boolean {
  if (attempt >= policy.maxAttempts && !(isTransient(outcome) && elapsedMs < (policy.retryForMs ?? 0))) return false;
  if (outcome.kind === 'network') return safeToRepeat || !outcome.sent;
  if (!isRetryableStatus(outcome.status)) return false;
  if (safeToRepeat) return true;
  return outcome.status === 429;
}

/**
 * Capped exponential backoff with full jitter; a Retry-After from the server wins over the computed delay.
 * (The exponent stops growing once the cap is reached, so attempt 500 of a long outage is still a number.)
 */
export function retryDelayMs(
  attempt: number,
  policy: RetryPolicy,
  random: () => number,
  retryAfterMs?: number,
): number {
  if (retryAfterMs !== undefined) return retryAfterMs;
  const computed = Math.min(
    policy.maxDelayMs,
    policy.initialDelayMs * Math.pow(policy.factor, Math.min(attempt - 1, 64)),
  );
  return policy.jitter ? Math.floor(random() * computed) : computed;
}

/** Retry-After as delay-seconds or an HTTP date, in ms from `nowMs`; undefined when absent or malformed. */
export function parseRetryAfter(header: string | undefined, nowMs: number): number | undefined {
  if (header === undefined) return undefined;
  const text = header.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  const at = Date.parse(text);
  if (Number.isNaN(at)) return undefined;
  return Math.max(0, at - nowMs);
}
