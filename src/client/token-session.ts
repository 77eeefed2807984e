import { RecipeError } from '../errors/index.js';
import type { CallOptions } from './call-options.js';
import { asObject, parseJson } from './envelope.js';
import type { HttpResponse } from './http.js';
import type { Redactor } from './redact.js';
import type { CallSpec, Tokens } from './request-loop.js';
import { tokenPath } from './routes.js';
import { TokenCache, type TokenAnswer } from './token.js';

/** Sends one logical call through the client's request loop. */
type Send = (spec: CallSpec, opts: CallOptions) => Promise<HttpResponse>;

/**
 * The application token of one client: exchanged for the client id and secret through the request loop
 * (retried like any read), cached and refreshed by TokenCache, and added to the redactor once obtained.
 * A refused exchange is C002; a service that cannot be reached is C012.
 */
export class TokenSession implements Tokens {
  private readonly cache: TokenCache;

  constructor(
    private readonly credentials: { readonly clientId: string; readonly clientSecret: string },
    private readonly origin: string,
    private readonly redactor: Redactor,
    private readonly send: Send,
    private readonly now: () => number,
  ) {
    this.cache = new TokenCache((signal) => this.exchange(signal), now);
  }

  valid(): string | null {
    return this.cache.valid();
  }

  get(signal?: AbortSignal): Promise<string> {
    return this.cache.get(signal);
  }

  invalidate(token: string): void {
    this.cache.invalidate(token);
  }

  private async exchange(signal?: AbortSignal): Promise<TokenAnswer> {
    const spec: CallSpec = {
      method: 'POST',
      path: tokenPath(),
      body: { client_id: this.credentials.clientId, client_secret: this.credentials.clientSecret },
      auth: false,
      entity: 'token',
      action: 'exchange',
      safeToRepeat: true,
    };
    let res: HttpResponse;
    try {
      res = await this.send(spec, signal ? { signal } : {});
    } catch (err) {
      if (err instanceof RecipeError && err.code === 'C005') {
        const p = err.params as { status: number; serviceMessage: string };
        throw new RecipeError('C002', { status: p.status, detail: `: ${p.serviceMessage}` });
      }
      if (err instanceof RecipeError && (err.code === 'C006' || err.code === 'C007')) {
        throw new RecipeError('C012', { origin: this.origin, reason: String(err.params.reason ?? 'timeout') });
      }
      throw err;
    }
    const body = asObject(parseJson(res, spec, this.redactor));
    const token = body.access_token;
    if (typeof token !== 'string' || token === '') {
      throw new RecipeError('C002', { status: res.status, detail: ': the answer has no access_token' });
    }
    this.redactor.add(token);
    return { accessToken: token, expiresIn: this.lifetimeOf(body.expires_in, token) };
  }

  /**
   * The token's lifetime in seconds: expires_in when positive; else (missing, zero or negative, which the
   * contract does not rule out in practice) the JWT's own exp claim when it has one in the future, else the
   * documented 15 minutes. A token that runs out sooner is refused with a 401, and the loop renews it once.
   */
  private lifetimeOf(expiresIn: unknown, token: string): number {
    if (typeof expiresIn === 'number' && Number.isFinite(expiresIn) && expiresIn > 0) return expiresIn;
    const exp = jwtExpiry(token);
    const left = exp === undefined ? 0 : exp - this.now() / 1000;
    return left > 0 ? left : DEFAULT_LIFETIME_S;
  }
}

/** Application tokens last 15 minutes (the service's documentation): the lifetime when the answer says none. */
const DEFAULT_LIFETIME_S = 900;

/** The exp claim (seconds since the epoch) of a JWT, read without verifying it; undefined when not a JWT. */
function jwtExpiry(token: string): number | undefined {
  const parts = token.split('.');
  if (parts.length !== 3 || parts[1] === undefined) return undefined;
  try {
    const claims: unknown = JSON.parse(Buffer.from(parts[1], 'base64url').toString('utf8'));
    const exp = claims !== null && typeof claims === 'object' ? (claims as Record<string, unknown>).exp : undefined;
    return typeof exp === 'number' && Number.isFinite(exp) ? exp : undefined;
  } catch {
    return undefined;
  }
}
