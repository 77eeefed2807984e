import type { Redis } from 'ioredis';
import type { RequestLimiter } from '../../client/index.js';
import { LuaScript } from '../../journal/redis/client.js';
import { RecipeError } from '../../errors/index.js';

/**
 * Requests are spaced a tenth more than 1/R apart. Redis decides when each may go, but it reaches the API a
 * little later, by a delay that varies (the network, a worker's busy event loop): without the margin, a few
 * requests delayed and then sent together could show the API R+1 in one of its seconds.
 */
export const SPACING_MARGIN = 0.1;

/** Where the fleet's rate limits live in Redis unless told otherwise. */
export const RATE_LIMIT_PREFIX = 'recipe:rate';

/**
 * One request under a key (GCRA with no burst): KEYS the key's next allowed time. ARGV the interval between
 * requests in µs. Replies 0 when the request may go now (and moves the next allowed time one interval on),
 * else how many µs to wait before asking again. The clock is Redis' (TIME), the same for every worker, so
 * workers' clocks may disagree without letting more through. Requests are spaced evenly, never in bursts:
 * any second then holds at most R of them, whichever second one counts.
 */
const TAKE = new LuaScript(`
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000000 + tonumber(t[2])
local interval = tonumber(ARGV[1])
local next = tonumber(redis.call('GET', KEYS[1]) or '0')
if next > now then return next - now end
redis.call('SET', KEYS[1], string.format('%.0f', now + interval), 'PX', math.ceil(interval / 1000) + 1000)
return 0
`);

export interface FleetRateLimiterOptions {
  /** A Redis connection every request of this worker asks through (not a blocking one). */
  readonly connection: Redis;
  /** The most requests per second per key (a connector id) across every worker of the fleet. */
  readonly maxRps: number;
  /** Key prefix (default recipe:rate): workers that share it share the limits. */
  readonly prefix?: string;
}

/**
 * A rate limit that a whole fleet respects (`recipe worker --max-rps-per-connector R`): each request to a
 * connector takes the next slot of that connector's shared schedule in Redis, 1.1/R s after the previous one
 * (SPACING_MARGIN), whichever worker sent it. A request waits (sleeping, never spinning) until its turn.
 */
export class FleetRateLimiter implements RequestLimiter {
  private readonly intervalUs: number;
  private readonly prefix: string;
  /** Per key, the last request of this process waiting for its turn. */
  private readonly tails = new Map<string, Promise<void>>();

  constructor(private readonly o: FleetRateLimiterOptions) {
    if (!Number.isFinite(o.maxRps) || o.maxRps <= 0)
      throw new RecipeError('F054', { reason: `a number of requests per second above 0, not ${String(o.maxRps)}` });
    this.intervalUs = Math.ceil((1_000_000 / o.maxRps) * (1 + SPACING_MARGIN));
    this.prefix = o.prefix ?? RATE_LIMIT_PREFIX;
  }

  async acquire(key: string, signal?: AbortSignal): Promise<void> {
    // This worker's requests to one connector ask Redis one at a time, in the order they came: a slot is
    // not fought over by every waiting request of the process (one Redis call per slot, not one per waiter).
    const before = this.tails.get(key) ?? Promise.resolve();
    let done = (): void => undefined;
    const mine = new Promise<void>((r) => (done = r));
    const tail = before.then(() => mine);
    this.tails.set(key, tail);
    try {
      await untilAborted(before, signal);
      await this.take(`${this.prefix}:${key}`, signal);
    } finally {
      done();
      if (this.tails.get(key) === tail) this.tails.delete(key);
    }
  }

  private async take(redisKey: string, signal?: AbortSignal): Promise<void> {
    for (;;) {
      if (signal?.aborted) throw new RecipeError('C011');
      const waitUs = Number(await TAKE.run(this.o.connection, [redisKey], [this.intervalUs]));
      if (waitUs <= 0) return;
      await sleep(Math.ceil(waitUs / 1000), signal);
    }
  }
}

/** `p`, or C011 as soon as `signal` aborts. */
export function untilAborted(p: Promise<void>, signal?: AbortSignal): Promise<void> {
  if (!signal) return p;
  if (signal.aborted) return Promise.reject(new RecipeError('C011'));
  return new Promise((resolve, reject) => {
    const onAbort = (): void => reject(new RecipeError('C011'));
    signal.addEventListener('abort', onAbort, { once: true });
    p.then(
      () => {
        signal.removeEventListener('abort', onAbort);
        resolve();
      },
      (err: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(err instanceof Error ? err : new Error(String(err)));
      },
    );
  });
}

/** Waits `ms`, or less when `signal` aborts. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((done) => {
    const timer = setTimeout(finish, ms);
    function finish(): void {
      clearTimeout(timer);
      signal?.removeEventListener('abort', finish);
      done();
    }
    signal?.addEventListener('abort', finish, { once: true });
  });
}
