import type { Dispatcher } from 'undici';
import { RecipeError } from '../errors/index.js';
import type { CallOptions } from './call-options.js';
import { errorForResponse } from './errors.js';
import { HttpTransport, TransportError, type HttpRequest, type HttpResponse } from './http.js';
import type { RequestLimiter } from './limiter.js';
import { RateGovernor } from './rate-governor.js';
import type { Redactor } from './redact.js';
import {
  DEFAULT_RETRY,
  MAX_RETRY_AFTER_MS,
  parseRetryAfter,
  retryDelayMs,
  shouldRetry,
  type Outcome,
  type RetryPolicy,
} from './retry-policy.js';
import { apiUrl } from './routes.js';

/** Injected so that tests control time and chance. */
export interface ClientDeps {
  readonly now?: () => number;
  readonly random?: () => number;
  readonly sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
}

/** What one logical call needs: the route, and what to say in errors. */
export interface CallSpec {
  readonly method: HttpRequest['method'];
  /** A path of the connector API (routes.ts), under the service's base URL. */
  readonly path: string;
  /** An absolute URL instead of `path` (http steps, outside the connector API). */
  readonly url?: URL;
  readonly query?: Record<string, string>;
  /** Sent as JSON. */
  readonly body?: unknown;
  /** Sent as it is, instead of `body`. */
  readonly rawBody?: string;
  /** Over the default headers (lower-case names). */
  readonly headers?: Readonly<Record<string, string>>;
  readonly auth: boolean;
  readonly entity: string;
  readonly action: string;
  readonly safeToRepeat: boolean;
  /** Which statuses end the call successfully (default 2xx). */
  readonly isSuccess?: (status: number) => boolean;
  /** The error for an answer that is neither a success nor retried (default: the service's error body). */
  readonly failure?: (res: HttpResponse) => RecipeError;
  /** What the limiter counts this call under (a connector id, an http origin); none: not limited. */
  readonly limitKey?: string;
}

/** The application token as the loop needs it (token-session.ts). */
export interface Tokens {
  /** The token when it is valid for a while yet, else null. */
  valid(): string | null;
  get(signal?: AbortSignal): Promise<string>;
  /** Drops the token a 401 proved bad. */
  invalidate(token: string): void;
}

/** How the loop sends: the service's base URL and the client's options. */
export interface LoopOptions {
  /** The service's base URL, ending with "/". */
  readonly base: URL;
  readonly requestTimeoutMs?: number;
  readonly retry?: RetryPolicy;
  readonly deps?: ClientDeps;
  readonly dispatcher?: Dispatcher;
  readonly limiter?: RequestLimiter;
  /** False: send as fast as the steps ask, learning nothing from rate-limit headers and 429s (rate-governor.ts). */
  readonly adaptiveRate?: boolean;
  /** Sent as x-organization-id on every request to the connector API (never to an http step's URL). */
  readonly organizationId?: string;
}

/**
 * The client's one request loop: each logical call is HTTP exchanges wrapped in the retry policy (backoff,
 * Retry-After, a repeat only when it cannot duplicate a write), the fleet's rate limit, and one re-send with
 * a fresh token on a 401.
 */
export class RequestLoop {
  /** Totals over the client's life. */
  readonly stats = { requests: 0, retries: 0 };
  /** True once the service answered a keyed write with Idempotent-Replayed: it honours Idempotency-Key. */
  idempotencyHonoured = false;

  private readonly transport: HttpTransport;
  private readonly base: URL;
  /** The last token's Authorization value (bearer()): tokens change rarely, requests many times a second. */
  private lastBearer: { readonly token: string; readonly header: string } | null = null;
  /** The base URL's origin, read once: every connector API call is keyed by it (a URL's getter builds it anew). */
  private readonly baseOrigin: string;
  private readonly timeoutMs: number;
  private readonly retry: RetryPolicy;
  private readonly limiter: RequestLimiter | undefined;
  private readonly governor: RateGovernor | undefined;
  private readonly organizationId: string | undefined;
  private readonly now: () => number;
  private readonly random: () => number;
  private readonly sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  /**
   * Origins that have answered this client at least once. A service never reached is a wrong URL or a service
   * that is not up, not an outage to wait out: connection failures to it get the attempts, not max_duration.
   */
  private readonly reached = new Set<string>();
  /** Parsed request URLs of the connector API by path (execute, inspect): a URL is parsed once, not per request. */
  private readonly urls = new Map<string, URL>();

  constructor(
    options: LoopOptions,
    private readonly tokens: Tokens,
    private readonly redactor: Redactor,
  ) {
    this.transport = new HttpTransport(options.dispatcher);
    this.base = options.base;
    this.baseOrigin = options.base.origin;
    this.timeoutMs = options.requestTimeoutMs ?? 30_000;
    this.retry = options.retry ?? DEFAULT_RETRY;
    this.limiter = options.limiter;
    this.organizationId = options.organizationId;
    this.now = options.deps?.now ?? Date.now;
    this.random = options.deps?.random ?? Math.random;
    this.sleep = options.deps?.sleep ?? abortableSleep;
    this.governor = options.adaptiveRate === false ? undefined : new RateGovernor(this.now, this.sleep);
  }

  /** Closes pooled connections. */
  async close(): Promise<void> {
    await this.transport.close();
  }

  /** One logical call: exchanges wrapped in the retry policy, plus one re-send with a fresh token on a 401. */
  async call(spec: CallSpec, opts: CallOptions): Promise<HttpResponse> {
    const policy = opts.retry ?? this.retry;
    const timeoutMs = opts.requestTimeoutMs ?? this.timeoutMs;
    const url = spec.url ?? this.urlOf(spec);
    const origin = spec.url ? spec.url.origin : this.baseOrigin;
    const body = spec.rawBody ?? (spec.body === undefined ? undefined : JSON.stringify(spec.body));
    const isSuccess = spec.isSuccess ?? isSuccessStatus;
    let refreshedAfter401 = false;
    const firstAt = this.now();
    for (let attempt = 1; ; attempt++) {
      if (opts.signal?.aborted) throw new RecipeError('C011');
      const headers: Record<string, string> = { accept: 'application/json', 'user-agent': 'recipe' };
      if (spec.body !== undefined) headers['content-type'] = 'application/json';
      if (opts.idempotencyKey !== undefined) headers['idempotency-key'] = opts.idempotencyKey;
      // The organization names the caller's account to the connector API only; an http step's origin is not it.
      if (this.organizationId !== undefined && !spec.url) headers['x-organization-id'] = this.organizationId;
      Object.assign(headers, spec.headers);
      // A keyed write to a connector service that honours keys cannot be applied twice, so it may be repeated.
      const safeToRepeat =
        spec.safeToRepeat || (opts.idempotencyKey !== undefined && this.idempotencyHonoured && !spec.url);
      const token = spec.auth ? (this.tokens.valid() ?? (await this.tokens.get(opts.signal))) : null;
      if (token) headers.authorization = this.bearer(token);
      if (spec.limitKey !== undefined && this.limiter) await this.limit(spec.limitKey, opts.signal);
      // The rate the service allows, learnt from its answers, shared by every concurrent call of the run: a
      // service limits a token across all its endpoints, so the key is the origin, not the connector.
      const paced = this.governor !== undefined ? origin : undefined;
      // Most calls find a free place at once: only those that must wait pay for a promise.
      if (paced !== undefined && !this.governor?.tryAcquire(paced)) await this.govern(paced, opts.signal);

      this.stats.requests++;
      opts.observer?.request?.();
      let outcome: Outcome;
      let res: HttpResponse | undefined;
      const sentAt = this.now();
      const traced = opts.observer?.exchange?.({
        method: spec.method,
        url,
        entity: spec.entity,
        action: spec.action,
        attempt,
      });
      // W3C trace context: the service (or an http step's target) can join its spans to this run's trace.
      if (traced?.traceparent !== undefined) headers.traceparent = traced.traceparent;
      try {
        // One literal of one shape (absent members undefined), not spreads: this runs once per request.
        res = await this.transport.send({ method: spec.method, url, headers, body, timeoutMs, signal: opts.signal });
      } catch (err) {
        if (paced !== undefined) this.governor?.release(paced, undefined);
        traced?.end({ error: err instanceof TransportError ? err.kind : 'error' });
        if (!(err instanceof TransportError)) throw err;
        if (err.kind === 'aborted') throw new RecipeError('C011');
        outcome = { kind: 'network', sent: err.sent };
        const waited = this.reached.has(origin) ? this.now() - firstAt : Number.POSITIVE_INFINITY;
        if (!shouldRetry(outcome, attempt, policy, safeToRepeat, waited)) {
          if (err.kind === 'timeout')
            throw new RecipeError('C007', { entity: spec.entity, action: spec.action, timeoutMs });
          throw new RecipeError('C006', {
            entity: spec.entity,
            action: spec.action,
            origin,
            reason: this.redactor.redact(err.reason),
            sent: err.sent,
          });
        }
        await this.backoff(attempt, policy, undefined, transportReason(err, url), opts, firstAt);
        continue;
      }

      this.reached.add(origin);
      const retryAfterMs = parseRetryAfter(res.headers['retry-after'], this.now());
      if (paced !== undefined) {
        const answer = { status: res.status, headers: res.headers };
        this.governor?.release(paced, retryAfterMs !== undefined ? { ...answer, retryAfterMs } : answer);
      }
      traced?.end({ status: res.status });
      if (opts.idempotencyKey !== undefined && !spec.url && res.headers['idempotent-replayed'] !== undefined)
        this.idempotencyHonoured = true;
      opts.observer?.response?.({
        method: spec.method,
        path: spec.url ? `${url.host}${url.pathname}` : url.pathname,
        what: `${spec.entity}.${spec.action}`,
        status: res.status,
        ms: this.now() - sentAt,
      });
      if (isSuccess(res.status)) return res;
      if (res.status === 401 && token !== null) {
        this.tokens.invalidate(token);
        if (!refreshedAfter401) {
          // A 401 means the request was refused, so sending it again cannot duplicate a write.
          refreshedAfter401 = true;
          attempt--;
          continue;
        }
        const e = errorForResponse(res, spec, this.redactor);
        throw new RecipeError('C003', { ...e.params, detail: `: ${String(e.params.serviceMessage)}` });
      }
      outcome = { kind: 'status', status: res.status, ...(retryAfterMs !== undefined ? { retryAfterMs } : {}) };
      const tooLong = retryAfterMs !== undefined && retryAfterMs > MAX_RETRY_AFTER_MS;
      if (tooLong || !shouldRetry(outcome, attempt, policy, safeToRepeat, this.now() - firstAt))
        throw spec.failure ? spec.failure(res) : errorForResponse(res, spec, this.redactor);
      await this.backoff(attempt, policy, retryAfterMs, `HTTP ${res.status}`, opts, firstAt);
    }
  }

  /** The Authorization header's value for `token`, built once per token (not once per request). */
  private bearer(token: string): string {
    if (this.lastBearer?.token !== token) this.lastBearer = { token, header: `Bearer ${token}` };
    return this.lastBearer.header;
  }

  private async govern(key: string, signal: AbortSignal | undefined): Promise<void> {
    try {
      await this.governor?.acquire(key, signal);
    } catch {
      throw new RecipeError('C011');
    }
  }

  private async limit(key: string, signal: AbortSignal | undefined): Promise<void> {
    try {
      await this.limiter?.acquire(key, signal);
    } catch (err) {
      if (signal?.aborted) throw new RecipeError('C011');
      throw err;
    }
  }

  /** The URL of a connector API call; one without a query is parsed once per path and reused (never changed). */
  private urlOf(spec: CallSpec): URL {
    if (spec.query !== undefined && Object.keys(spec.query).length > 0) {
      const url = apiUrl(this.base, spec.path);
      for (const [k, v] of Object.entries(spec.query)) url.searchParams.set(k, v);
      return url;
    }
    let url = this.urls.get(spec.path);
    if (!url) {
      url = apiUrl(this.base, spec.path);
      this.urls.set(spec.path, url);
    }
    return url;
  }

  private async backoff(
    attempt: number,
    policy: RetryPolicy,
    retryAfterMs: number | undefined,
    reason: string,
    opts: CallOptions,
    firstAt: number,
  ): Promise<void> {
    const delayMs = retryDelayMs(attempt, policy, this.random, retryAfterMs);
    this.stats.retries++;
    opts.observer?.retry?.({
      attempt,
      delayMs,
      reason,
      // Past its attempts, the call is waiting out an outage (max_duration): the run says so, not only debug.
      ...(attempt >= policy.maxAttempts ? { waitingMs: this.now() - firstAt, retryForMs: policy.retryForMs ?? 0 } : {}),
    });
    try {
      await this.sleep(delayMs, opts.signal);
    } catch {
      throw new RecipeError('C011');
    }
  }
}

/** A success, unless the call says otherwise (CallSpec.isSuccess): any 2xx. */
function isSuccessStatus(status: number): boolean {
  return status >= 200 && status < 300;
}

/** Why an exchange failed, for a retry line: the kind, and the error code when there is one (ECONNREFUSED). */
function transportReason(err: TransportError, url: URL): string {
  const code = /\b(E[A-Z]+|UND_ERR_[A-Z_]+)\b/.exec(err.reason)?.[1];
  return `${err.kind}${code !== undefined ? ` ${code}` : ''} ${url.host}`;
}

/** setTimeout as a promise that rejects when the signal aborts. */
export function abortableSleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
