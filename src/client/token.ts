/** What the token endpoint answers (only the fields the client uses). */
export interface TokenAnswer {
  readonly accessToken: string;
  /** Lifetime in seconds. */
  readonly expiresIn: number;
}

/** The token is refreshed this long before it runs out: a tenth of its lifetime, at most a minute. */
function refreshMarginMs(lifetimeMs: number): number {
  return Math.min(60_000, lifetimeMs / 10);
}

/**
 * Holds the application token: fetched on first use, shared by concurrent callers (one exchange in flight),
 * refreshed before expires_in runs out, and dropped on a 401 so the next get() fetches a new one.
 */
export class TokenCache {
  private token: string | null = null;
  private refreshAtMs = 0;
  private inFlight: Promise<string> | null = null;

  constructor(
    private readonly fetchToken: (signal?: AbortSignal) => Promise<TokenAnswer>,
    private readonly now: () => number,
  ) {}

  /** The token when it is valid for a while yet, else null (then get() fetches one): no promise per request. */
  valid(): string | null {
    return this.token !== null && this.now() < this.refreshAtMs ? this.token : null;
  }

  /** A token valid for a while yet; fetches a new one when there is none or it is about to expire. */
  async get(signal?: AbortSignal): Promise<string> {
    if (this.token !== null && this.now() < this.refreshAtMs) return this.token;
    if (!this.inFlight) {
      this.inFlight = this.fetchToken(signal)
        .then((answer) => {
          const lifetimeMs = Math.max(0, answer.expiresIn * 1000);
          this.token = answer.accessToken;
          this.refreshAtMs = this.now() + lifetimeMs - refreshMarginMs(lifetimeMs);
          return answer.accessToken;
        })
        .finally(() => {
          this.inFlight = null;
        });
    }
    return this.inFlight;
  }

  /** Forgets the token if it is still `token` (a 401 proved it bad); a newer one is kept. */
  invalidate(token: string): void {
    if (this.token === token) {
      this.token = null;
      this.refreshAtMs = 0;
    }
  }
}
