import { randomBytes } from 'node:crypto';
import type { RedisCommands } from './client.js';
import { RELEASE, RENEW } from './statements.js';

/**
 * A hold on a run (or a part of one) that works across machines: a key with an expiry that only its holder
 * (who knows the random token) renews, a third of the way into each period. A worker that dies, however it
 * dies, stops renewing, and the run is free once the period runs out; a worker that stalls longer than the
 * period loses it, and the journal's writes (fenced by the token) then fail instead of mixing two holders.
 */
export class Lease {
  readonly token = randomBytes(12).toString('hex');
  private timer: NodeJS.Timeout | null = null;
  private lostAt: number | null = null;

  constructor(
    private readonly redis: RedisCommands,
    readonly key: string,
    readonly ms: number,
  ) {}

  /** Starts renewing (once the key is set by the script that took hold). */
  keep(): void {
    this.timer = setInterval(() => void this.renew(), Math.max(50, Math.floor(this.ms / 3)));
    this.timer.unref();
  }

  /** True once a renewal found the lease taken or expired. */
  get lost(): boolean {
    return this.lostAt !== null;
  }

  private async renew(): Promise<void> {
    try {
      const ok = await RENEW.run(this.redis, [this.key], [this.token, this.ms]);
      if (Number(ok) !== 1) {
        this.lostAt ??= Date.now();
        this.stop();
      }
    } catch {
      // Redis unreachable for a moment: the next renewal tries again; the appends will say if it is gone.
    }
  }

  private stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  /** Stops renewing and deletes the key if it is still ours. */
  async release(): Promise<void> {
    this.stop();
    await RELEASE.run(this.redis, [this.key], [this.token]).catch(() => undefined);
  }

  /** Stops renewing without deleting (the run's end already removed the key's meaning). */
  drop(): void {
    this.stop();
  }
}
