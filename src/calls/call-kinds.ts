import {
  connectorsPath,
  executePath,
  inspectPath,
  isKnownActionName,
  toEnvelope,
  writes,
  type Download,
  type Envelope,
  type HttpAnswer,
  type HttpCallRequest,
} from '../client/index.js';
import { RecipeError } from '../errors/index.js';
import type { ConnectorRef } from '../compile/plan.js';
import type { TypeSource } from './dry-run.js';
import { locationOf } from '../frame/step-errors.js';
import { evaluate } from '../frame/eval.js';
import type { Scope } from '../frame/scope.js';
import { callService, type ServiceCall } from './call-service.js';
import type { StepContext } from './step-context.js';

/**
 * POST .../execute as a journaled call; `write` from actionWrites. A write under --dry-run answers the
 * dry-run placeholder.
 */
export function executeCall(
  stepCtx: StepContext,
  connectorId: string,
  entity: string,
  action: string,
  params: Record<string, unknown>,
  write: boolean,
  findEffect?: ServiceCall<Envelope>['findEffect'],
): ServiceCall<Envelope> {
  // One literal of one shape per request (a write's members undefined for a read), not spreads.
  return {
    kind: 'execute',
    method: 'POST',
    path: executePath(connectorId),
    entity,
    action,
    write,
    request: { connector: connectorId, entity, action, params },
    keepAnswer: true,
    send: (opts) => stepCtx.ctx.client.execute(connectorId, { entity, action, params }, opts),
    encode: identity,
    // The recorded JSON text becomes the envelope exactly as a live answer does.
    decode: (stored) => toEnvelope(stored, { entity, action }),
    dryRun: write ? (callKey) => dryRunExecute(stepCtx, callKey, connectorId, entity, action, params) : undefined,
    assumed: write ? assumedSent : undefined,
    findEffect,
  };
}

const identity = <T>(value: T): T => value;

/** A write under --dry-run: recorded with its placeholder, logged, answered as the service would not. */
async function dryRunExecute(
  stepCtx: StepContext,
  callKey: string,
  connectorId: string,
  entity: string,
  action: string,
  params: Record<string, unknown>,
): Promise<Envelope> {
  const result = await stepCtx.state.dryRun.record(
    stepCtx.writeSite(),
    placeholderId(callKey),
    connectorId,
    entity,
    action,
    params,
    dryRunTypes(stepCtx, connectorId),
  );
  stepCtx.ctx.log(
    'info',
    stepCtx.ctx.redactor.redact(`dry run: would send ${entity}.${action} ${JSON.stringify(params)}`),
  );
  return { status: 'dry_run', result, connector_metadata: {}, execution_metadata: {} };
}

/**
 * A write settled with --assume-sent: no answer was ever seen, so the step's result is null and $response
 * says how it was settled.
 */
function assumedSent(): Envelope {
  return { status: 'assumed_sent', result: null, connector_metadata: {}, execution_metadata: {} };
}

/** POST .../execute for a download: the bytes are not journaled, so a resume fetches them again. */
export function downloadCall(
  stepCtx: StepContext,
  connectorId: string,
  entity: string,
  action: string,
  params: Record<string, unknown>,
): ServiceCall<Download> {
  return {
    kind: 'download',
    method: 'POST',
    path: executePath(connectorId),
    entity,
    action,
    write: false,
    request: { connector: connectorId, entity, action, params },
    keepAnswer: false,
    send: (opts) => stepCtx.ctx.client.download(connectorId, { entity, action, params }, opts),
    encode: (d) => ({ content_type: d.contentType, filename: d.filename, bytes: d.bytes.length }),
    decode: () => {
      throw new Error('download answers are not journaled');
    },
  };
}

/**
 * GET .../inspect; `shared`: the run-wide action catalog of a connector (paging keys, which actions write).
 * The client learns from every answer, a replayed one included, which of the connector's actions write.
 */
export async function inspect(
  stepCtx: StepContext,
  connectorId: string,
  shared = false,
): Promise<Record<string, unknown>> {
  const info = await callService(stepCtx, {
    kind: 'inspect',
    method: 'GET',
    path: inspectPath(connectorId),
    entity: null,
    action: 'inspect',
    write: false,
    request: { connector: connectorId },
    ...(shared ? { sharedKey: `$actions:${connectorId}` } : {}),
    keepAnswer: true,
    send: (opts) => stepCtx.ctx.client.inspect(connectorId, opts),
    encode: (answer) => answer,
    decode: (stored) => stored as Record<string, unknown>,
  });
  stepCtx.ctx.client.learnActions?.(connectorId, info);
  return info;
}

/**
 * The connector's actions from inspect (`actions[]`), asked once per connector per run and shared by every
 * step; null when inspect fails or lists no actions (a service may not).
 */
export function connectorActions(stepCtx: StepContext, connectorId: string): Promise<Record<string, unknown>[] | null> {
  const cache = stepCtx.state.actionCatalog;
  let actions = cache.get(connectorId);
  if (!actions) {
    actions = inspect(stepCtx, connectorId, true).then(
      (info) => (Array.isArray(info.actions) ? (info.actions as Record<string, unknown>[]) : null),
      () => null,
    );
    cache.set(connectorId, actions);
  }
  return actions;
}

/**
 * Whether entity.action writes: what the connector's service says (inspect's `actions[].write`), else the
 * name rule. The run asks inspect for it only when the name rule is not certain (an action name it does not
 * know) or the run has asked already; a service that does not say (an older one) leaves the name rule.
 */
export function actionWrites(
  stepCtx: StepContext,
  connectorId: string,
  entity: string,
  action: string,
): boolean | Promise<boolean> {
  const client = stepCtx.ctx.client;
  // A client without learned facts (a test's fake) has no word from the service: the client's rule decides.
  const isWrite = (): boolean =>
    client.isWriteAction?.(connectorId, entity, action) ?? writes(undefined, entity, action);
  const ask =
    client.isWriteAction !== undefined &&
    client.knowsActions?.(connectorId) !== true &&
    (!isKnownActionName(action) || stepCtx.state.actionCatalog.has(connectorId));
  // Synchronous unless inspect must be asked: this runs before every execute (each page of a paginate).
  return ask ? connectorActions(stepCtx, connectorId).then(isWrite) : isWrite();
}

/** The connector id for a step: its own `connector:`, else the recipe's, resolved through the client. */
export function stepConnectorId(
  stepCtx: StepContext,
  scope: Scope,
  what: { entity: string; action: string },
): Promise<string> {
  const ref = stepCtx.step.connector ?? stepCtx.state.defaultConnector;
  // Nearly always written out (`connector: { workspace: default, definition: CRM }`) and asked once per item
  // of a loop: then the run's one lookup answers, without an async frame per item.
  const workspace = ref?.kind === 'lookup' ? ref.workspace : undefined;
  if (ref?.kind === 'lookup' && ref.definition.kind === 'literal' && (!workspace || workspace.kind === 'literal'))
    return resolveConnector(stepCtx, workspace ? String(workspace.value) : undefined, String(ref.definition.value));
  if (!ref) return Promise.reject(new RecipeError('X015', what, locationOf(stepCtx.step.loc)));
  return evaluatedConnectorId(stepCtx, scope, ref);
}

/** A connector ref with expressions: evaluated in the step's scope, then resolved. */
async function evaluatedConnectorId(stepCtx: StepContext, scope: Scope, ref: ConnectorRef): Promise<string> {
  if (ref.kind === 'id') return String(await evaluate(ref.id, scope));
  const definition = String(await evaluate(ref.definition, scope));
  const workspace = ref.workspace ? String(await evaluate(ref.workspace, scope)) : undefined;
  return resolveConnector(stepCtx, workspace, definition);
}

/** Where --dry-run finds a write's connector type: a literal `definition`, else the run-wide action catalog. */
function dryRunTypes(stepCtx: StepContext, connectorId: string): TypeSource {
  const ref = stepCtx.step.connector ?? stepCtx.state.defaultConnector;
  const literal =
    ref?.kind === 'lookup' && ref.definition.kind === 'literal' && typeof ref.definition.value === 'string'
      ? ref.definition.value
      : undefined;
  // The run-wide action catalog call (shared with paging key detection, journaled and replayed once).
  return {
    ...(literal !== undefined ? { definition: literal } : {}),
    inspect: () => inspect(stepCtx, connectorId, true),
  };
}

/** A connector id found by workspace and definition: one lookup per run, shared by every step. */
export function resolveConnector(
  stepCtx: StepContext,
  workspace: string | undefined,
  definition: string,
): Promise<string> {
  const sharedKey = `$connector:${workspace ?? ''}/${definition}`;
  // Asked once per run: every later step (each item of a loop) gets the same answer without building a call.
  const known = stepCtx.state.recorder.shared.get(sharedKey) as Promise<string> | undefined;
  if (known) return known;
  const ref = workspace === undefined ? { definition } : { workspace, definition };
  return callService(stepCtx, {
    kind: 'resolve',
    method: 'GET',
    path: connectorsPath(),
    entity: null,
    action: 'resolve',
    write: false,
    request: ref,
    sharedKey,
    keepAnswer: true,
    send: (opts) => stepCtx.ctx.client.resolveConnector(ref, opts.signal ? { signal: opts.signal } : {}),
    encode: (id) => id,
    decode: (stored) => String(stored),
  });
}

/** Request headers whose values are credentials even when no declared secret shows in them. */
const CREDENTIAL_HEADER = /authorization|cookie|token|secret|api[-_]?key|password|signature/i;

/**
 * An http step's request as a journaled call: GET and HEAD are reads, anything else a write (journaled as an
 * intent first, sent with an Idempotency-Key, which a webhook may honour or ignore). Only the flags settle
 * such a write in doubt: the connector service's key support says nothing about another server. The journal
 * gets the URL and body masked like everything else, and credential-like header values masked by name.
 */
export function httpCall(
  stepCtx: StepContext,
  req: HttpCallRequest,
  requestTimeoutMs?: number,
): ServiceCall<HttpAnswer> {
  const url = new URL(req.url);
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.headers)) headers[name] = CREDENTIAL_HEADER.test(name) ? '***' : value;
  return {
    kind: 'http',
    method: req.method,
    path: `${url.origin}${url.pathname}`,
    entity: null,
    action: null,
    write: req.method !== 'GET' && req.method !== 'HEAD',
    request: { method: req.method, url: req.url, headers, body: req.body ?? null },
    keepAnswer: true,
    send: async (opts) => {
      // The one place an http step's request leaves: a test run's guard may refuse it here, before any socket.
      await stepCtx.ctx.beforeOutside?.({
        stepPath: stepCtx.path,
        loc: stepCtx.step.loc,
        method: req.method,
        url: req.url,
        headers: req.headers,
        ...(req.body !== undefined ? { body: req.body } : {}),
      });
      return stepCtx.ctx.client.http(req, requestTimeoutMs !== undefined ? { ...opts, requestTimeoutMs } : opts);
    },
    encode: (answer) => answer,
    decode: (stored) => stored as HttpAnswer,
    // No answer was ever seen: no status, no body.
    assumed: (): HttpAnswer => ({ status: 0, headers: {}, body: null }),
  };
}

/**
 * A --dry-run write's placeholder id: "dry-run-" and the call's place in the run (the step path, with each
 * enclosing loop's item index, and the call's number within the visit when it is not the first), so it is
 * the same on every dry run and unique however many items run at once.
 */
export function placeholderId(callKey: string): string {
  return `dry-run-${callKey.endsWith('#0') ? callKey.slice(0, -2) : callKey}`;
}
