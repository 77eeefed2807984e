import { ServiceError } from '../core/errors.js';

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
  take(key: string): void {
    const now = this.clock();
    const b = this.buckets.get(key) ?? { tokens: this.perSecond, at: now };
    b.tokens = Math.min(this.perSecond, b.tokens + (Math.max(0, now - b.at) / 1000) * this.perSecond);
    b.at = now;
    this.buckets.set(key, b);
    if (b.tokens >= 1) {
      b.tokens -= 1;
      this.prune(now);
      return;
    }
    const retryAfter = Math.max(1, Math.ceil((1 - b.tokens) / this.perSecond));
    throw new ServiceError(
      'H429',
      { limit: this.perSecond, retryAfter },
      { headers: { 'retry-after': String(retryAfter) } },
    );
  }

  // Buckets idle long enough to be full again carry no state; drop them so the map stays small.
  private prune(now: number): void {
    if (this.buckets.size < 10_000) return;
    for (const [k, b] of this.buckets) if (now - b.at > 1000) this.buckets.delete(k);
  }
}
