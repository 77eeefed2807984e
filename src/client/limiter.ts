/**
 * Paces requests, e.g. a rate limit a whole fleet of workers shares (src/fleet/rate-limit/). The client asks
 * before every exchange with a connector (retries included), keyed by connector id; http steps by origin.
 */
export interface RequestLimiter {
  /** Resolves when a request under `key` may be sent; rejects when `signal` aborts. */
  acquire(key: string, signal?: AbortSignal): Promise<void>;
}
