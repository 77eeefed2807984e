/**
 * The retry policy around one HTTP exchange: which outcomes are retried, and how long to wait.
 * Pure functions; the client supplies the clock, the random source and the sleep.
 */

/** How many times and how far apart; the same shape as a recipe step's `retry`. */
export interface RetryPolicy {
  readonly maxAttempts: number;
  readonly initialDelayMs: number;
  readonly maxDelayMs: number;
  readonly factor: number;
  /** Full jitter: the delay is uniform in [0, computed]. Without it the computed delay is used. */
  readonly jitter: boolean;
}

/** Four attempts (three retries), 0.5 s doubling up to 20 s, full jitter. */
export const DEFAULT_RETRY: RetryPolicy = {
  maxAttempts: 4,
  initialDelayMs: 500,
  maxDelayMs: 20_000,
  factor: 2,
  jitter: true,
};

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
 * Whether to retry after `attempt` (1-based) failed. Writes that are not idempotent are retried only when
 * a repeat cannot duplicate: a 429 answer means the request was refused before any work, a connect error
 * means it never left; a reset or a 502/503/504 after sending might hide a write that happened.
 */
export function shouldRetry(outcome: Outcome, attempt: number, policy: RetryPolicy, safeToRepeat: boolean): boolean {
  if (attempt >= policy.maxAttempts) return false;
  if (outcome.kind === 'network') return safeToRepeat || !outcome.sent;
  if (!isRetryableStatus(outcome.status)) return false;
  if (safeToRepeat) return true;
  return outcome.status === 429;
}

/** Exponential backoff with full jitter; a Retry-After from the server wins over the computed delay. */
export function retryDelayMs(
  attempt: number,
  policy: RetryPolicy,
  random: () => number,
  retryAfterMs?: number,
): number {
  if (retryAfterMs !== undefined) return retryAfterMs;
  const computed = Math.min(policy.maxDelayMs, policy.initialDelayMs * Math.pow(policy.factor, attempt - 1));
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
