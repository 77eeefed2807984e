/**
 * Deliveries a trigger accepts per minute: a fixed one-minute window per trigger, in memory (one server). A
 * sender that goes over gets 429 and retries later, as webhook senders do.
 */
export class RateLimiter {
  private readonly windows = new Map<string, { start: number; count: number }>();

  constructor(private readonly now: () => number = Date.now) {}

  /** Counts one request for `key`; false when it is over `perMinute` in the current minute. */
  take(key: string, perMinute: number): boolean {
    const t = this.now();
    const w = this.windows.get(key);
    if (!w || t - w.start >= 60_000) {
      this.windows.set(key, { start: t, count: 1 });
      return true;
    }
    w.count++;
    return w.count <= perMinute;
  }
}
