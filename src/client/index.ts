/** The connector API client: the only network code of the engine. */
export { ConnectorClient } from './client.js';
export { abortableSleep } from './request-loop.js';
export { requestWritten } from './http.js';
export { filenameFrom } from './download-name.js';
export { toEnvelope } from './envelope.js';
export type { CallObserver, CallOptions, ExchangeEnd, ExchangeHandle, ExchangeStart } from './call-options.js';
export type { RequestLimiter } from './limiter.js';
export type { ClientOptions, Download, ExecuteRequest } from './client.js';
export type * from './api-types.js';
export type { ClientDeps } from './request-loop.js';
export type { Envelope } from './envelope.js';
export { isKnownActionName, isSafeToRepeat, isWriteAction, writes } from './actions.js';
export { actionFactsOf, actionWritesOf } from './action-facts.js';
export type { ActionFact } from './action-facts.js';
export { isIdempotentMethod, isSuccessStatus } from './http-exchange.js';
export type { HttpAnswer, HttpCallRequest } from './http-exchange.js';
export { fetchOpenApiDocument } from './openapi.js';
export {
  apiUrl,
  connectorsPath,
  definitionsPath,
  executePath,
  inspectPath,
  isExecutePath,
  isExecuteTemplate,
  isTokenPath,
  openapiPath,
  routeTemplateOf,
  tokenPath,
  workspacesPath,
} from './routes.js';
export { completeConnectionConfig, readConnectionConfig, ENV } from './config.js';
export type { ConnectionConfig, ConnectionFlags, PartialConnectionConfig } from './config.js';
export { Redactor, REDACTED } from './redact.js';
export type { ConnectorLookup } from './resolve.js';
export {
  DEFAULT_RETRY,
  DEFAULT_RETRY_FOR_MS,
  parseRetryAfter,
  retryDelayMs,
  retryPolicyFrom,
  runRetryPolicy,
  shouldRetry,
} from './retry-policy.js';
export { formatDuration, parseDurationMs, DURATION_PATTERN } from './duration.js';
export type { RetryFields, RetryPolicy } from './retry-policy.js';
