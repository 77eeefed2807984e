/**
 * H: errors the embedded connector service answers over HTTP. Each has the HTTP status and the
 * snake_case error_code that goes into the body {message, errors: [{field, message, error_code, details}]}.
 * Owned by src/service/.
 */
export interface ServiceCatalogEntry {
  status: number;
  errorCode: string;
  template: string;
}

export const serviceCodes = {
  H400: { status: 400, errorCode: 'validation_error', template: '{message}' },
  H401: { status: 401, errorCode: 'unauthorized', template: '{message}' },
  H403: { status: 403, errorCode: 'forbidden', template: '{message}' },
  H403_WORKSPACE_INACTIVE: {
    status: 403,
    errorCode: 'workspace_inactive',
    template:
      'workspace "{workspace}" is inactive, so its connectors refuse execute; set its status to active with PUT /api/v1/workspaces/{workspaceId}',
  },
  H400_UNKNOWN_ENTITY: {
    status: 400,
    errorCode: 'unknown_entity',
    template: 'connector type {type} has no entity "{entity}"; valid entities: {valid}',
  },
  H400_UNKNOWN_ACTION: {
    status: 400,
    errorCode: 'unknown_action',
    template: 'entity "{entity}" of connector type {type} has no action "{action}"; valid actions: {valid}',
  },
  H404: { status: 404, errorCode: 'not_found', template: '{message}' },
  H409: { status: 409, errorCode: 'conflict', template: '{message}' },
  H409_CONTEXT_STORE: {
    status: 409,
    errorCode: 'context_store_not_ready',
    template:
      'the context store for {entity} is {status}; context_store_search works once it is Preview or Ready (use list/get until then)',
  },
  H413: { status: 413, errorCode: 'payload_too_large', template: 'request body is larger than {limit} bytes' },
  H415: { status: 415, errorCode: 'unsupported_media_type', template: '{message}' },
  H422: { status: 422, errorCode: 'value_error', template: '{message}' },
  H429: {
    status: 429,
    errorCode: 'rate_limited',
    template: 'rate limit of {limit} requests per second exceeded; retry after {retryAfter} s',
  },
  H500: { status: 500, errorCode: 'internal_error', template: 'internal error' },
  H422_IDEMPOTENCY_KEY_REUSED: {
    status: 422,
    errorCode: 'idempotency_key_reused',
    template:
      'this Idempotency-Key was used within the last 24 hours for a different request; use a new key for a new request',
  },
} satisfies Record<string, ServiceCatalogEntry>;
