/**
 * Keeps one client's requests to a service just under that service's rate limit, shared by every concurrent
 * item of a run (a run has one client). A `foreach` at concurrency 32 against a service that allows 50
 * requests a second should run at 50 a second, not send 32 at once, get 429s, back off and burst again.
 *
 * It learns the limit from what the service says, in this order:
 * 1. `RateLimit-Policy: <limit>;w=<seconds>` (the IETF draft's policy field): requests are spaced evenly at
 *    that rate, with a 2 % margin, from then on.
 * 2. `RateLimit-Remaining: 0` with `RateLimit-Reset: <seconds>` (or the X-RateLimit-* spelling): nothing is
 *    sent until the reset.
 * 3. A 429 (with or without Retry-After): the number of requests in flight is halved, and grows again by one
 *    for every window of successes (AIMD, as TCP does); Retry-After holds every request, not only the one
 *    that got it.
 * Until the service says anything, nothing is held back. Keys are origins: a service limits a token across
 * all its endpoints (an http step's target is its own origin).
 */
export interface RateAnswer {
  readonly status: number;
  readonly headers: Readonly<Record<string, string | undefined>>;
  /** Retry-After, already parsed (milliseconds), when the answer had one. */
  readonly retryAfterMs?: number;
}

interface KeyState {
  /** Requests allowed in flight at once (Infinity until a 429 says otherwise). */
  window: number;
  inFlight: number;
  /** Successes since the window last grew. */
  successes: number;
  /** Spacing between sends from the policy header (0: none known). */
  intervalMs: number;
  /** Earliest time the next request may be sent. */
  nextAt: number;
  readonly waiting: (() => void)[];
}

/** Never spaced closer than the policy allows: 2 % slower than the advertised rate absorbs clock skew. */
const POLICY_MARGIN = 1.02;
/** A window grown from AIMD never exceeds this (it starts unlimited; only a 429 makes it finite). */
const MAX_WINDOW = 1024;

export class RateGovernor {
  private readonly keys = new Map<string, KeyState>();

  constructor(
    private readonly now: () => number,
    private readonly sleep: (ms: number, signal?: AbortSignal) => Promise<void>,
  ) {}

  /**
   * Counts a request under `key` in flight when it may be sent now (no wait for a place or for the policy's
   * spacing), and says whether it did; else the caller awaits acquire(). Most requests go this way, and a
   * synchronous answer spares each of them a promise.
   */
  tryAcquire(key: string): boolean {
    const s = this.state(key);
    if (s.inFlight >= s.window) return false;
    const now = this.now();
    if (s.nextAt > now) return false;
    s.inFlight++;
    if (s.intervalMs > 0) s.nextAt = now + s.intervalMs;
    return true;
  }

  /** Waits until a request under `key` may be sent, then counts it in flight. Rejects when `signal` aborts. */
  async acquire(key: string, signal?: AbortSignal): Promise<void> {
    const s = this.state(key);
    while (s.inFlight >= s.window) await this.wait(s, signal);
    s.inFlight++;
    const now = this.now();
    const at = Math.max(now, s.nextAt);
    if (s.intervalMs > 0) s.nextAt = at + s.intervalMs;
    if (at > now) {
      try {
        await this.sleep(at - now, signal);
      } catch (err) {
        this.done(s);
        throw err;
      }
    }
  }

  /** Ends a request under `key`: learns from its answer (none: it never got one) and lets the next one go. */
  release(key: string, answer: RateAnswer | undefined): void {
    const s = this.state(key);
    if (answer) this.learn(s, answer);
    this.done(s);
  }

  /** What is known of a key, for tests and progress: the window in flight and the spacing in milliseconds. */
  describe(key: string): { window: number; intervalMs: number } {
    const s = this.state(key);
    return { window: s.window, intervalMs: s.intervalMs };
  }

  private learn(s: KeyState, answer: RateAnswer): void {
    const now = this.now();
    const policy = parsePolicy(header(answer.headers, 'ratelimit-policy'));
    if (policy) s.intervalMs = ((policy.windowSeconds * 1000) / policy.limit) * POLICY_MARGIN;
    const remaining = numberOf(header(answer.headers, 'ratelimit-remaining', 'x-ratelimit-remaining'));
    const reset = numberOf(header(answer.headers, 'ratelimit-reset', 'x-ratelimit-reset'));
    if (remaining === 0 && reset !== undefined) s.nextAt = Math.max(s.nextAt, now + resetMs(reset, now));
    if (answer.status === 429) {
      s.window = Math.max(1, Math.floor(Math.min(s.window, s.inFlight) / 2));
      s.successes = 0;
      if (answer.retryAfterMs !== undefined) s.nextAt = Math.max(s.nextAt, now + answer.retryAfterMs);
      return;
    }
    if (answer.status < 400 && Number.isFinite(s.window) && ++s.successes >= s.window) {
      s.window = Math.min(MAX_WINDOW, s.window + 1);
      s.successes = 0;
    }
  }

  private done(s: KeyState): void {
    s.inFlight--;
    // Wake as many waiters as there are free places; each re-checks the window when it runs.
    for (let free = s.window - s.inFlight; free > 0 && s.waiting.length > 0; free--) s.waiting.shift()?.();
  }

  private wait(s: KeyState, signal: AbortSignal | undefined): Promise<void> {
    return new Promise((resolve, reject) => {
      if (signal?.aborted) return reject(signal.reason);
      const wake = (): void => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      };
      const onAbort = (): void => {
        const i = s.waiting.indexOf(wake);
        if (i >= 0) s.waiting.splice(i, 1);
        reject(signal?.reason);
      };
      s.waiting.push(wake);
      signal?.addEventListener('abort', onAbort, { once: true });
    });
  }

  private state(key: string): KeyState {
    let s = this.keys.get(key);
    if (!s) {
      s = { window: Infinity, inFlight: 0, successes: 0, intervalMs: 0, nextAt: 0, waiting: [] };
      this.keys.set(key, s);
    }
    return s;
  }
}

/** A header by its name, else by its other spelling: read for every answer, so no rest array. */
function header(
  headers: Readonly<Record<string, string | undefined>>,
  name: string,
  other?: string,
): string | undefined {
  return headers[name] ?? (other === undefined ? undefined : headers[other]);
}

function numberOf(text: string | undefined): number | undefined {
  if (text === undefined || text.trim() === '') return undefined;
  const n = Number(text);
  return Number.isFinite(n) && n >= 0 ? n : undefined;
}

/** RateLimit-Reset: seconds from now, or (the X-RateLimit-Reset habit) a Unix time in seconds. */
function resetMs(reset: number, now: number): number {
  const asEpochMs = reset * 1000;
  return asEpochMs > now - 86_400_000 ? Math.max(0, asEpochMs - now) : reset * 1000;
}

/** `50;w=1` (the draft's `<limit>;w=<window>`; several policies: the first, the tightest is usually listed first). */
export function parsePolicy(text: string | undefined): { limit: number; windowSeconds: number } | undefined {
  if (text === undefined) return undefined;
  const first = text.split(',')[0] ?? '';
  const [limitPart, ...params] = first.split(';').map((p) => p.trim());
  const limit = Number(limitPart);
  if (!Number.isFinite(limit) || limit <= 0) return undefined;
  const w = params.find((p) => p.startsWith('w='));
  const windowSeconds = w === undefined ? 1 : Number(w.slice(2));
  if (!Number.isFinite(windowSeconds) || windowSeconds <= 0) return undefined;
  return { limit, windowSeconds };
}
