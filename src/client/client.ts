import type { Dispatcher } from 'undici';
import { RecipeError } from '../errors/index.js';
import { ActionFacts } from './action-facts.js';
import type {
  ConnectorDefinition,
  ConnectorQuery,
  ConnectorSummary,
  InspectAction,
  InspectAnswer,
  SkillDocs,
  Workspace,
} from './api-types.js';
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
import { autoNext, itemsOf } from './page-keys.js';
import {
  connectorPath,
  connectorsPath,
  definitionsPath,
  executePath,
  inspectPath,
  openapiPath,
  skillDocsPath,
  workspacesPath,
} from './routes.js';
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
  /**
   * Default true: keep to the rate the service allows, learnt from its RateLimit-* headers and 429s and shared
   * by every concurrent call (rate-governor.ts). False: send as fast as the steps ask.
   */
  readonly adaptiveRate?: boolean;
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

  /** GET .../inspect, typed as the contract promises (docs_skill_id is checked; the rest is the service's). */
  async describe(connectorId: string, opts: CallOptions = {}): Promise<InspectAnswer> {
    const body = await this.inspect(connectorId, opts);
    if (typeof body.docs_skill_id !== 'string') throw unexpected('inspect', 'no docs_skill_id');
    return body as unknown as InspectAnswer;
  }

  /** GET /integrations/definitions/sources: the connector types, optionally those named `name`. */
  async definitions(query: { readonly name?: string } = {}, opts: CallOptions = {}): Promise<ConnectorDefinition[]> {
    const body = await this.getJson(definitionsPath(), { ...query }, 'definitions', opts);
    return listField<ConnectorDefinition>(body, 'definitions', 'definitions');
  }

  /**
   * GET /integrations/connectors with the contract's filters. A service may answer more than the filter
   * asked (the contract does not promise it filters): check `summarized_source_template.actor_definition_id`.
   */
  async connectors(query: ConnectorQuery = {}, opts: CallOptions = {}): Promise<ConnectorSummary[]> {
    const body = await this.getJson(connectorsPath(), { ...query }, 'connectors', opts);
    return listField<ConnectorSummary>(body, 'data', 'connectors');
  }

  /** GET /integrations/connectors/{id}: one connector (its fields as the service answers them). */
  async connector(connectorId: string, opts: CallOptions = {}): Promise<Record<string, unknown>> {
    return asObject(await this.getJson(connectorPath(connectorId), {}, 'connector', opts));
  }

  /** GET /workspaces: the first page of the organization's workspaces. */
  async workspaces(opts: CallOptions = {}): Promise<Workspace[]> {
    return listField<Workspace>(await this.getJson(workspacesPath(), {}, 'workspaces', opts), 'data', 'workspaces');
  }

  /** GET /skills/docs: a skill's outline (no section) or one section's content. */
  async skillDocs(skillId: string, section?: string, opts: CallOptions = {}): Promise<SkillDocs> {
    const query = { id: skillId, ...(section !== undefined && { section }) };
    const body = asObject(await this.getJson(skillDocsPath(), query, 'skill_docs', opts));
    if (!Array.isArray(body.outline) || !Array.isArray(body.content)) throw unexpected('skill_docs', 'no outline');
    return body as unknown as SkillDocs;
  }

  /**
   * Every page of a list-like action, one envelope each, following the connector's paging keys as the
   * engine's paginate step does (page-keys.ts): the service's cursor or offset sent back until it says
   * there is no more. Stops with X004 when the service hands back a page key it was already sent.
   */
  async *pages(connectorId: string, req: ExecuteRequest, opts: CallOptions = {}): AsyncGenerator<Envelope> {
    let params: Record<string, unknown> = { ...req.params };
    const sent = new Set<string>();
    let declared: ReadonlySet<string> | null | undefined;
    for (;;) {
      const envelope = await this.execute(connectorId, { ...req, params }, opts);
      yield envelope;
      const size = itemsOf(envelope.result)?.length ?? 0;
      let next = autoNext(params, envelope.result, envelope.connector_metadata, size, declared);
      if (next.kind === 'needs-action-params') {
        declared = await this.actionParams(connectorId, req, opts);
        next = autoNext(params, envelope.result, envelope.connector_metadata, size, declared);
      }
      if (next.kind !== 'next') return;
      const signature = `${next.key}=${JSON.stringify(next.value)}`;
      if (sent.has(signature)) {
        const detail = `${next.key} ${JSON.stringify(next.value)} was already sent`;
        throw new RecipeError('X004', {
          entity: req.entity,
          action: req.action,
          what: next.key,
          detail,
          key: next.key,
        });
      }
      sent.add(signature);
      params = next.params;
    }
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
  /** What the service's OpenAPI document said of Idempotency-Key, read once already (its catalog). */
  knowIdempotencyKeys(declared: boolean): void {
    this.idempotencyProbe ??= Promise.resolve(declared);
  }

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

  /** The params an action declares (inspect's actions), or null when the service does not list them. */
  private async actionParams(connectorId: string, req: ExecuteRequest, opts: CallOptions): Promise<Set<string> | null> {
    const actions = (await this.inspect(connectorId, opts)).actions;
    const found = Array.isArray(actions)
      ? (actions as Partial<InspectAction>[]).find((a) => a.entity === req.entity && a.action === req.action)
      : undefined;
    if (found === undefined) return null;
    return new Set([...(found.required_params ?? []), ...(found.optional_params ?? [])].map(String));
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

function unexpected(action: string, reason: string): RecipeError {
  return new RecipeError('C010', { entity: 'connectors', action, reason });
}

/** The array under `field` of an answer; C010 when the answer has none (a service off the contract). */
function listField<T>(body: unknown, field: string, action: string): T[] {
  const list = body !== null && typeof body === 'object' ? (body as Record<string, unknown>)[field] : undefined;
  if (!Array.isArray(list)) throw unexpected(action, `no ${field}[] in the answer`);
  return list as T[];
}
