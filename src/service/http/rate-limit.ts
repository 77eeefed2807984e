import { ServiceError } from '../core/errors.js';

/** What a rate-limited answer tells the client of its budget (the RateLimit-* headers). */
export interface RateState {
  /** Requests per second, and the bucket's size. */
  readonly limit: number;
  /** Requests the token may still send at once. */
  readonly remaining: number;
  /** Seconds until the bucket is full again (0: it is). */
  readonly resetSeconds: number;
}

/**
 * The headers a rate-limited API sends on every answer, in the form of the IETF draft
 * (draft-ietf-httpapi-ratelimit-headers, the RateLimit-Limit/-Remaining/-Reset fields most APIs and
 * proxies send) plus its policy field, `RateLimit-Policy: 50;w=1` (50 requests per 1-second window), from
 * which a client can pace itself at the limit instead of learning it from 429s.
 */
export function rateLimitHeaders(state: RateState): Record<string, string> {
  return {
    'ratelimit-limit': String(state.limit),
    'ratelimit-remaining': String(state.remaining),
    'ratelimit-reset': String(state.resetSeconds),
    'ratelimit-policy': `${state.limit};w=1`,
  };
}

interface Bucket {
  tokens: number;
  at: number;
}

/**
 * A per-key token bucket: `perSecond` requests per second with bursts up to `perSecond`. Keys are
 * bearer tokens, so every token has its own budget. Time comes from the service clock (milliseconds), so
 * tests that pin it get deterministic budgets; a clock that steps back refills nothing.
 */
export class RateLimiter {
  private readonly buckets = new Map<string, Bucket>();

  constructor(
    private readonly perSecond: number,
    private readonly clock: () => number = () => Date.now(),
  ) {}

  /** Takes one request from the key's bucket, or throws H429 with Retry-After in whole seconds. */
  take(key: string): RateState {
    const now = this.clock();
    const b = this.buckets.get(key) ?? { tokens: this.perSecond, at: now };
    b.tokens = Math.min(this.perSecond, b.tokens + (Math.max(0, now - b.at) / 1000) * this.perSecond);
    b.at = now;
    this.buckets.set(key, b);
    if (b.tokens >= 1) {
      b.tokens -= 1;
      this.prune(now);
      const resetSeconds = Math.ceil((this.perSecond - b.tokens) / this.perSecond);
      return { limit: this.perSecond, remaining: Math.floor(b.tokens), resetSeconds };
    }
    const retryAfter = Math.max(1, Math.ceil((1 - b.tokens) / this.perSecond));
    const headers = rateLimitHeaders({ limit: this.perSecond, remaining: 0, resetSeconds: retryAfter });
    throw new ServiceError(
      'H429',
      { limit: this.perSecond, retryAfter },
      { headers: { 'retry-after': String(retryAfter), ...headers } },
    );
  }

  // Buckets idle long enough to be full again carry no state; drop them so the map stays small.
  private prune(now: number): void {
    if (this.buckets.size < 10_000) return;
    for (const [k, b] of this.buckets) if (now - b.at > 1000) this.buckets.delete(k);
  }
}
