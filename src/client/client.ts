import type { Dispatcher } from 'undici';
import { RecipeError } from '../errors/index.js';
import type { CallOptions } from './call-options.js';
import { ActionFacts } from './action-facts.js';
import type { ConnectionConfig } from './config.js';
import type { RequestLimiter } from './limiter.js';
import { errorForResponse } from './errors.js';
import {
  httpStatusError,
  isIdempotentMethod,
  isSuccessStatus,
  readHttpAnswer,
  type HttpAnswer,
  type HttpCallRequest,
} from './http-exchange.js';
import { HttpTransport, TransportError, type HttpRequest, type HttpResponse } from './http.js';
import { Redactor } from './redact.js';
import { ConnectorResolver, type ConnectorLookup } from './resolve.js';
import { apiUrl, executePath, inspectPath, isExecuteTemplate, openapiPath, tokenPath } from './routes.js';
import {
  DEFAULT_RETRY,
  MAX_RETRY_AFTER_MS,
  parseRetryAfter,
  retryDelayMs,
  shouldRetry,
  type Outcome,
  type RetryPolicy,
} from './retry-policy.js';
import { TokenCache, type TokenAnswer } from './token.js';

/** The execute request body. */
export interface ExecuteRequest {
  readonly entity: string;
  readonly action: string;
  readonly params?: Record<string, unknown>;
}

/** The execute answer; connector_metadata is normalised to an object (the live service may send null). */
export interface Envelope {
  readonly status: unknown;
  readonly result: unknown;
  readonly connector_metadata: Record<string, unknown>;
  readonly execution_metadata: Record<string, unknown>;
  readonly [key: string]: unknown;
}

/** A downloaded file. */
export interface Download {
  readonly bytes: Buffer;
  readonly contentType: string;
  readonly filename: string | null;
}

/** Injected so that tests control time and chance. */
export interface ClientDeps {
  readonly now?: () => number;
  readonly random?: () => number;
  readonly sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
}

export interface ClientOptions extends ConnectionConfig {
  /** Per-request timeout (default 30 s). */
  readonly requestTimeoutMs?: number;
  readonly retry?: RetryPolicy;
  readonly deps?: ClientDeps;
  /** Sends every exchange through this undici dispatcher instead of the client's own pools (mocks, cassettes). */
  readonly dispatcher?: Dispatcher;
  /** Asked before each exchange with a connector (or an http step's origin): a fleet-wide rate limit. */
  readonly limiter?: RequestLimiter;
}

/** What one logical call needs: the route, and what to say in errors. */
interface CallSpec {
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

/**
 * The connector API client: the only code that talks to the network. Each call is one HTTP exchange
 * wrapped in the retry policy; the token is fetched, cached, refreshed and retried once on a 401.
 */
export class ConnectorClient {
  /** Masks the client secret and every token obtained; run/ adds recipe secrets to it. */
  readonly redactor: Redactor;
  /** Totals over the client's life. */
  readonly stats = { requests: 0, retries: 0 };
  /** True once the service answered a keyed write with Idempotent-Replayed: it honours Idempotency-Key. */
  idempotencyHonoured = false;

  private readonly transport: HttpTransport;
  private readonly tokens: TokenCache;
  private readonly resolver: ConnectorResolver;
  private readonly base: URL;
  private readonly timeoutMs: number;
  private readonly retry: RetryPolicy;
  private readonly now: () => number;
  private readonly random: () => number;
  private readonly sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  private idempotencyProbe: Promise<boolean> | undefined;
  /** Parsed request URLs of the connector API by path (execute, inspect): a URL is parsed once, not per request. */
  private readonly urls = new Map<string, URL>();
  /** Per connector: what its inspect answers said of its actions (learnActions). */
  private readonly actionFacts = new ActionFacts();

  constructor(
    private readonly options: ClientOptions,
    redactor = new Redactor(),
  ) {
    this.redactor = redactor;
    this.redactor.add(options.clientSecret);
    this.transport = new HttpTransport(options.dispatcher);
    this.base = new URL(options.baseUrl.endsWith('/') ? options.baseUrl : `${options.baseUrl}/`);
    this.timeoutMs = options.requestTimeoutMs ?? 30_000;
    this.retry = options.retry ?? DEFAULT_RETRY;
    this.now = options.deps?.now ?? Date.now;
    this.random = options.deps?.random ?? Math.random;
    this.sleep = options.deps?.sleep ?? abortableSleep;
    this.tokens = new TokenCache((signal) => this.exchangeToken(signal), this.now);
    this.resolver = new ConnectorResolver((path, query, action, opts) => this.getJson(path, query, action, opts));
  }

  /** The workspace used when a lookup names none. */
  get defaultWorkspace(): string {
    return this.options.workspace;
  }

  /** POST .../execute: one envelope. */
  async execute(connectorId: string, req: ExecuteRequest, opts: CallOptions = {}): Promise<Envelope> {
    const res = await this.call(this.executeSpec(connectorId, req), opts);
    const text = res.body.toString('utf8');
    const envelope = toEnvelope(parseJsonText(text, res, req, this.redactor), req);
    opts.observer?.answer?.(text);
    return envelope;
  }

  /** POST .../execute for a download action: the raw bytes, never empty. */
  async download(connectorId: string, req: ExecuteRequest, opts: CallOptions = {}): Promise<Download> {
    const res = await this.call(this.executeSpec(connectorId, req), opts);
    if (res.body.length === 0) throw new RecipeError('C009', { entity: req.entity, action: req.action });
    return {
      bytes: res.body,
      contentType: res.headers['content-type'] ?? 'application/octet-stream',
      filename: filenameFrom(res.headers['content-disposition']),
    };
  }

  /** GET .../inspect: the connector's description, including context store readiness. */
  async inspect(connectorId: string, opts: CallOptions = {}): Promise<Record<string, unknown>> {
    const body = await this.getJson(inspectPath(connectorId), {}, 'inspect', opts);
    this.learnActions(connectorId, body);
    return asObject(body);
  }

  /**
   * Learns which of a connector's actions write (`actions[].write`) and which writes may be repeated
   * (`actions[].idempotent`) from an inspect answer: the client's own
   * inspect calls, and answers a resume replays from the journal. Actions the answer says nothing of keep
   * the name rule.
   */
  learnActions(connectorId: string, inspectAnswer: unknown): void {
    this.actionFacts.learn(connectorId, inspectAnswer);
  }

  /** True when the connector's entity.action writes: what its service said, else the name rule. */
  isWriteAction(connectorId: string, entity: string, action: string): boolean {
    return this.actionFacts.writes(connectorId, entity, action);
  }

  /** True once an inspect answer of the connector said which of its actions write. */
  knowsActions(connectorId: string): boolean {
    return this.actionFacts.knows(connectorId);
  }

  /**
   * One request outside the connector API (a recipe's http step): no token, the same retry policy and
   * Retry-After handling as execute (idempotent methods are repeated like reads, POST and PATCH only when a
   * repeat cannot duplicate them). The answer's body is parsed by its content type.
   */
  async http(req: HttpCallRequest, opts: CallOptions = {}): Promise<HttpAnswer> {
    const spec: CallSpec = {
      method: req.method,
      path: '',
      url: new URL(req.url),
      ...(req.body !== undefined ? { rawBody: req.body } : {}),
      headers: { accept: '*/*', ...req.headers },
      auth: false,
      entity: 'http',
      action: req.method,
      safeToRepeat: isIdempotentMethod(req.method),
      isSuccess: (status) => isSuccessStatus(status, req.successStatus),
      failure: (res) => httpStatusError(res, req, this.redactor),
      limitKey: `http:${new URL(req.url).origin}`,
    };
    return readHttpAnswer(await this.call(spec, opts), req, this.redactor);
  }

  /** A connector id: as given, or found by workspace and definition (cached for the client's life). */
  async resolveConnector(ref: ConnectorLookup, opts: CallOptions = {}): Promise<string> {
    return this.resolver.resolve(ref, this.options.workspace, opts);
  }

  /**
   * Whether the service honours Idempotency-Key on execute, asked once: true when it already said so
   * (Idempotent-Replayed on an answer), else when its OpenAPI document (GET /api/v1/openapi.json)
   * declares the header on the execute operation. False when it cannot tell (no document, no header).
   */
  async probeIdempotencyKeys(opts: CallOptions = {}): Promise<boolean> {
    if (this.idempotencyHonoured) return true;
    this.idempotencyProbe ??= this.getJson(openapiPath(), {}, 'openapi', opts).then(
      (doc) => declaresIdempotencyKey(doc),
      () => false,
    );
    const honoured = await this.idempotencyProbe;
    if (honoured) this.idempotencyHonoured = true;
    return honoured;
  }

  /** Closes pooled connections. */
  async close(): Promise<void> {
    await this.transport.close();
  }

  private executeSpec(connectorId: string, req: ExecuteRequest): CallSpec {
    return {
      method: 'POST',
      path: executePath(connectorId),
      body: { entity: req.entity, action: req.action, params: req.params ?? {} },
      auth: true,
      entity: req.entity,
      action: req.action,
      safeToRepeat: this.actionFacts.safeToRepeat(connectorId, req.entity, req.action),
      limitKey: connectorId,
    };
  }

  /** One GET of the connector API answering JSON (lookups, and the console's read-only service page). */
  async getJson(path: string, query: Record<string, string>, action: string, opts: CallOptions): Promise<unknown> {
    const spec: CallSpec = { method: 'GET', path, query, auth: true, entity: 'connectors', action, safeToRepeat: true };
    return parseJson(await this.call(spec, opts), spec, this.redactor);
  }

  private async exchangeToken(signal?: AbortSignal): Promise<TokenAnswer> {
    const spec: CallSpec = {
      method: 'POST',
      path: tokenPath(),
      body: { client_id: this.options.clientId, client_secret: this.options.clientSecret },
      auth: false,
      entity: 'token',
      action: 'exchange',
      safeToRepeat: true,
    };
    let res: HttpResponse;
    try {
      res = await this.call(spec, signal ? { signal } : {});
    } catch (err) {
      if (err instanceof RecipeError && err.code === 'C005') {
        const p = err.params as { status: number; serviceMessage: string };
        throw new RecipeError('C002', { status: p.status, detail: `: ${p.serviceMessage}` });
      }
      if (err instanceof RecipeError && (err.code === 'C006' || err.code === 'C007')) {
        throw new RecipeError('C012', { origin: this.base.origin, reason: String(err.params.reason ?? 'timeout') });
      }
      throw err;
    }
    const body = asObject(parseJson(res, spec, this.redactor));
    const token = body.access_token;
    if (typeof token !== 'string' || token === '') {
      throw new RecipeError('C002', { status: res.status, detail: ': the answer has no access_token' });
    }
    this.redactor.add(token);
    const expiresIn = typeof body.expires_in === 'number' && body.expires_in > 0 ? body.expires_in : 900;
    return { accessToken: token, expiresIn };
  }

  /** One logical call: exchanges wrapped in the retry policy, plus one re-send with a fresh token on a 401. */
  private async call(spec: CallSpec, opts: CallOptions): Promise<HttpResponse> {
    const policy = opts.retry ?? this.retry;
    const timeoutMs = opts.requestTimeoutMs ?? this.timeoutMs;
    const url = spec.url ?? this.urlOf(spec);
    const body = spec.rawBody ?? (spec.body === undefined ? undefined : JSON.stringify(spec.body));
    const isSuccess = spec.isSuccess ?? ((status: number) => status >= 200 && status < 300);
    let refreshedAfter401 = false;
    for (let attempt = 1; ; attempt++) {
      if (opts.signal?.aborted) throw new RecipeError('C011');
      const headers: Record<string, string> = { accept: 'application/json', 'user-agent': 'recipe' };
      if (spec.body !== undefined) headers['content-type'] = 'application/json';
      if (opts.idempotencyKey !== undefined) headers['idempotency-key'] = opts.idempotencyKey;
      Object.assign(headers, spec.headers);
      // A keyed write to a connector service that honours keys cannot be applied twice, so it may be repeated.
      const safeToRepeat =
        spec.safeToRepeat || (opts.idempotencyKey !== undefined && this.idempotencyHonoured && !spec.url);
      const token = spec.auth ? (this.tokens.valid() ?? (await this.tokens.get(opts.signal))) : null;
      if (token) headers.authorization = `Bearer ${token}`;
      if (spec.limitKey !== undefined && this.options.limiter) await this.limit(spec.limitKey, opts.signal);

      this.stats.requests++;
      opts.observer?.request?.();
      let outcome: Outcome;
      let res: HttpResponse | undefined;
      const sentAt = this.now();
      const endExchange = opts.observer?.exchange?.({
        method: spec.method,
        url,
        entity: spec.entity,
        action: spec.action,
        attempt,
      });
      try {
        res = await this.transport.send({
          method: spec.method,
          url,
          headers,
          ...(body !== undefined ? { body } : {}),
          timeoutMs,
          ...(opts.signal ? { signal: opts.signal } : {}),
        });
      } catch (err) {
        endExchange?.({ error: err instanceof TransportError ? err.kind : 'error' });
        if (!(err instanceof TransportError)) throw err;
        if (err.kind === 'aborted') throw new RecipeError('C011');
        outcome = { kind: 'network', sent: err.sent };
        if (!shouldRetry(outcome, attempt, policy, safeToRepeat)) {
          if (err.kind === 'timeout')
            throw new RecipeError('C007', { entity: spec.entity, action: spec.action, timeoutMs });
          throw new RecipeError('C006', {
            entity: spec.entity,
            action: spec.action,
            origin: url.origin,
            reason: this.redactor.redact(err.reason),
            sent: err.sent,
          });
        }
        await this.backoff(attempt, policy, undefined, err.kind, opts);
        continue;
      }

      endExchange?.({ status: res.status });
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
      const retryAfterMs = parseRetryAfter(res.headers['retry-after'], this.now());
      outcome = { kind: 'status', status: res.status, ...(retryAfterMs !== undefined ? { retryAfterMs } : {}) };
      const tooLong = retryAfterMs !== undefined && retryAfterMs > MAX_RETRY_AFTER_MS;
      if (tooLong || !shouldRetry(outcome, attempt, policy, safeToRepeat))
        throw spec.failure ? spec.failure(res) : errorForResponse(res, spec, this.redactor);
      await this.backoff(attempt, policy, retryAfterMs, `HTTP ${res.status}`, opts);
    }
  }

  private async limit(key: string, signal: AbortSignal | undefined): Promise<void> {
    try {
      await this.options.limiter?.acquire(key, signal);
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
  ): Promise<void> {
    const delayMs = retryDelayMs(attempt, policy, this.random, retryAfterMs);
    this.stats.retries++;
    opts.observer?.retry?.({ attempt, delayMs, reason });
    try {
      await this.sleep(delayMs, opts.signal);
    } catch {
      throw new RecipeError('C011');
    }
  }
}

function parseJson(res: HttpResponse, where: { entity: string; action: string }, redactor: Redactor): unknown {
  return parseJsonText(res.body.toString('utf8'), res, where, redactor);
}

function parseJsonText(
  text: string,
  res: HttpResponse,
  where: { entity: string; action: string },
  redactor: Redactor,
): unknown {
  try {
    return JSON.parse(text);
  } catch {
    const ct = res.headers['content-type'] ?? 'no content type';
    throw new RecipeError('C010', {
      entity: where.entity,
      action: where.action,
      reason: redactor.redact(`the body is not JSON (${ct}, ${res.body.length} bytes)`),
    });
  }
}

/**
 * The envelope of an execute answer's parsed body: connector_metadata and execution_metadata made objects
 * (the live service may send null). C010 when the body is not a JSON object. A replay from the journal
 * goes through this too, so a recorded answer gives the very envelope the live one gave.
 */
export function toEnvelope(body: unknown, where: { entity: string; action: string }): Envelope {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    throw new RecipeError('C010', {
      entity: where.entity,
      action: where.action,
      reason: 'the body is not a JSON object',
    });
  }
  const env = body as Record<string, unknown>;
  return {
    ...env,
    status: env.status,
    result: env.result,
    connector_metadata: asObject(env.connector_metadata),
    execution_metadata: asObject(env.execution_metadata),
  };
}

/** True when an OpenAPI document declares an Idempotency-Key header on POST .../connectors/{id}/execute. */
function declaresIdempotencyKey(doc: unknown): boolean {
  const paths = asObject(asObject(doc).paths);
  const execute = Object.entries(paths).find(([path]) => isExecuteTemplate(path))?.[1];
  const params = asObject(asObject(execute).post).parameters;
  return (
    Array.isArray(params) &&
    params.some((p) => {
      const o = asObject(p);
      return o.in === 'header' && typeof o.name === 'string' && o.name.toLowerCase() === 'idempotency-key';
    })
  );
}

function asObject(v: unknown): Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
}

/** filename*=UTF-8''... wins over filename="..." (RFC 6266). */
export function filenameFrom(disposition: string | undefined): string | null {
  if (!disposition) return null;
  const star = /filename\*\s*=\s*([^']*)'[^']*'([^;]+)/i.exec(disposition);
  if (star?.[2]) {
    try {
      return decodeURIComponent(star[2].trim());
    } catch {
      /* fall through to the plain form */
    }
  }
  const plain = /filename\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^;]+))/i.exec(disposition);
  const name = plain?.[1]?.replace(/\\(.)/g, '$1') ?? plain?.[2]?.trim();
  return name ? name : null;
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
