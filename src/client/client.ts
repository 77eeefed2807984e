import type { Dispatcher } from 'undici';
import { RecipeError } from '../errors/index.js';
import { ActionFacts } from './action-facts.js';
import type { CallOptions } from './call-options.js';
import type { ConnectionConfig } from './config.js';
import { filenameFrom } from './download-name.js';
import { asObject, parseJson, parseJsonText, toEnvelope, type Envelope } from './envelope.js';
import {
  httpStatusError,
  isIdempotentMethod,
  isSuccessStatus,
  readHttpAnswer,
  type HttpAnswer,
  type HttpCallRequest,
} from './http-exchange.js';
import type { RequestLimiter } from './limiter.js';
import { declaresIdempotencyKey } from './openapi.js';
import { Redactor } from './redact.js';
import { RequestLoop, type CallSpec, type ClientDeps } from './request-loop.js';
import { ConnectorResolver, type ConnectorLookup } from './resolve.js';
import type { RetryPolicy } from './retry-policy.js';
import { executePath, inspectPath, openapiPath } from './routes.js';
import { TokenSession } from './token-session.js';

/** The execute request body. */
export interface ExecuteRequest {
  readonly entity: string;
  readonly action: string;
  readonly params?: Record<string, unknown>;
}

/** A downloaded file. */
export interface Download {
  readonly bytes: Buffer;
  readonly contentType: string;
  readonly filename: string | null;
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

/**
 * The connector API client: the only code that talks to the network. A facade over its rooms: the request
 * loop (request-loop.ts: each call one HTTP exchange wrapped in the retry policy), the token (token-session.ts:
 * fetched, cached, refreshed, renewed once on a 401), what each connector's service said of its actions
 * (action-facts.ts), the connector lookup (resolve.ts) and the paths (routes.ts).
 */
export class ConnectorClient {
  /** Masks the client secret and every token obtained; run/ adds recipe secrets to it. */
  readonly redactor: Redactor;
  /** Totals over the client's life. */
  readonly stats: { requests: number; retries: number };

  private readonly loop: RequestLoop;
  private readonly resolver: ConnectorResolver;
  private idempotencyProbe: Promise<boolean> | undefined;
  /** Per connector: what its inspect answers said of its actions (learnActions). */
  private readonly actionFacts = new ActionFacts();

  constructor(
    private readonly options: ClientOptions,
    redactor = new Redactor(),
  ) {
    this.redactor = redactor;
    this.redactor.add(options.clientSecret);
    const base = new URL(options.baseUrl.endsWith('/') ? options.baseUrl : `${options.baseUrl}/`);
    const tokens = new TokenSession(
      options,
      base.origin,
      redactor,
      (spec, opts) => this.loop.call(spec, opts),
      options.deps?.now ?? Date.now,
    );
    this.loop = new RequestLoop({ ...options, base }, tokens, redactor);
    this.stats = this.loop.stats;
    this.resolver = new ConnectorResolver((path, query, action, opts) => this.getJson(path, query, action, opts));
  }

  /** The service's base URL, as configured. */
  get baseUrl(): string {
    return this.options.baseUrl;
  }

  /** True once the service answered a keyed write with Idempotent-Replayed: it honours Idempotency-Key. */
  get idempotencyHonoured(): boolean {
    return this.loop.idempotencyHonoured;
  }

  set idempotencyHonoured(honoured: boolean) {
    this.loop.idempotencyHonoured = honoured;
  }

  /** The workspace used when a lookup names none. */
  get defaultWorkspace(): string {
    return this.options.workspace;
  }

  /** POST .../execute: one envelope. */
  async execute(connectorId: string, req: ExecuteRequest, opts: CallOptions = {}): Promise<Envelope> {
    const res = await this.loop.call(this.executeSpec(connectorId, req), opts);
    const text = res.body.toString('utf8');
    const envelope = toEnvelope(parseJsonText(text, res, req, this.redactor), req);
    opts.observer?.answer?.(text);
    return envelope;
  }

  /** POST .../execute for a download action: the raw bytes, never empty. */
  async download(connectorId: string, req: ExecuteRequest, opts: CallOptions = {}): Promise<Download> {
    const res = await this.loop.call(this.executeSpec(connectorId, req), opts);
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
   * Learns from an inspect answer which of a connector's actions write (`actions[].write`) and which writes
   * may be repeated (`actions[].idempotent`): the client's own inspect calls, and answers a resume replays
   * from the journal. Actions the answer says nothing of keep the name rule.
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
    return readHttpAnswer(await this.loop.call(spec, opts), req, this.redactor);
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
    await this.loop.close();
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
    return parseJson(await this.loop.call(spec, opts), spec, this.redactor);
  }
}
