import { seededRandom as randomFromSeed } from '../run/index.js';

/**
 * The clock a case runs on: pinned at the case's `now` (so $run.started_at, the service's timestamps and the
 * recipe's date arithmetic are the same on every run), moving only when the client waits before a retry, which
 * takes no real time. Without a pinned time it follows the wall clock.
 */
export class TestClock {
  private base: number | undefined;
  private offset = 0;

  /** Pins the clock at an ISO date-time (undefined: the wall clock) and forgets earlier waits. */
  set(iso: string | undefined): void {
    this.base = iso === undefined ? undefined : Date.parse(iso);
    this.offset = 0;
  }

  now(): number {
    return (this.base ?? Date.now()) + this.offset;
  }

  /** A retry wait: the clock moves on by `ms` at once. */
  async sleep(ms: number, signal?: AbortSignal): Promise<void> {
    if (signal?.aborted) throw signal.reason;
    this.offset += Math.max(0, ms);
    await Promise.resolve();
  }
}

/** A deterministic random source for a case (the run's generator over a hash of `seed`), so run ids and jitter repeat. */
export function seededRandom(seed: string): () => number {
  let h = 2166136261;
  for (let i = 0; i < seed.length; i++) h = Math.imul(h ^ seed.charCodeAt(i), 16777619);
  return randomFromSeed(h >>> 0);
}
