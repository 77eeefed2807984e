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
  // Specific 400s. validation_error stays the code of a request that does not have the shape its schema and
  // documented rules ask for (types, required or unknown fields, either/or fields, well-formed JSON); every
  // other refusal has its own code.
  H400_INVALID_REQUEST: { status: 400, errorCode: 'validation_error', template: 'invalid request: {problems}' },
  H400_INVALID_PARAMS: { status: 400, errorCode: 'validation_error', template: '{what} is invalid: {problems}' },
  H400_INVALID_JSON: { status: 400, errorCode: 'validation_error', template: 'request body is not valid JSON' },
  H400_EMPTY_BODY: {
    status: 400,
    errorCode: 'validation_error',
    template: 'request body is empty; send a JSON object',
  },
  H400_CONFLICTING_TYPE: {
    status: 400,
    errorCode: 'validation_error',
    template: '{fields} name different connector types; give one',
  },
  H400_MALFORMED_REQUEST: { status: 400, errorCode: 'malformed_request', template: 'malformed request: {reason}' },
  H400_INVALID_CURSOR: { status: 400, errorCode: 'invalid_cursor', template: '{message}' },
  H400_INVALID_LIMIT: { status: 400, errorCode: 'invalid_limit', template: '{message}' },
  H400_CURSOR_NOT_SUPPORTED: {
    status: 400,
    errorCode: 'cursor_not_supported',
    template: 'the {type} connector does not page with params.cursor; {instead}',
  },
  H400_INVALID_FILTER: { status: 400, errorCode: 'invalid_filter', template: '{message}' },
  H400_INVALID_SEARCH: { status: 400, errorCode: 'invalid_search', template: '{message}' },
  H400_VALUE_TOO_LONG: {
    status: 400,
    errorCode: 'value_too_long',
    template: '{field} is {length} characters long; the limit is {limit}',
  },
  H400_INVALID_PROPERTY: { status: 400, errorCode: 'invalid_property', template: '{message}' },
  H400_UNKNOWN_OBJECT_TYPE: {
    status: 400,
    errorCode: 'unknown_object_type',
    template:
      '{field} "{ref}" is not an object type of this CRM (contacts, companies, deals, tickets, notes, calls, emails, meetings, tasks, or a custom object type id / fully qualified name)',
  },
  H400_INVALID_ASSOCIATION_TYPE: { status: 400, errorCode: 'invalid_association_type', template: '{message}' },
  H400_INVALID_ID_PROPERTY: {
    status: 400,
    errorCode: 'invalid_id_property',
    template: 'params.idProperty "{property}" is not a unique property of {type}; use one of: {allowed}',
  },
  H400_INVALID_CONTENT: { status: 400, errorCode: 'invalid_content', template: '{message}' },
  H400_INVALID_FIXTURES: { status: 400, errorCode: 'invalid_fixtures', template: '{message}' },
  H400_CONTEXT_STORE_UNAVAILABLE: {
    status: 400,
    errorCode: 'context_store_unavailable',
    template: 'context store not available for this connector',
  },
  H408: { status: 408, errorCode: 'request_timeout', template: 'the request did not arrive in time' },
  H414: { status: 414, errorCode: 'uri_too_long', template: 'a path segment is longer than {limit} characters' },
  H431: {
    status: 431,
    errorCode: 'headers_too_large',
    template: 'the request headers are larger than the server accepts',
  },
  H400_LONE_SURROGATE: {
    status: 400,
    errorCode: 'validation_error',
    template:
      '{field} is not well-formed Unicode: it holds a lone surrogate (\\u{code}), which has no UTF-8 form; send whole characters',
  },
  H400_JSON_TOO_DEEP: {
    status: 400,
    errorCode: 'json_too_deep',
    template: 'request body nests objects and arrays deeper than {limit} levels',
  },
  H400_INVALID_SEARCH_PARAMS: {
    status: 400,
    errorCode: 'invalid_search',
    template: 'context_store_search params are invalid: {problems}',
  },
  H400_INVALID_IDEMPOTENCY_KEY: {
    status: 400,
    errorCode: 'invalid_idempotency_key',
    template: 'Idempotency-Key must be 1 to 255 printable ASCII characters without spaces',
  },
  H422_IDEMPOTENCY_KEY_REUSED: {
    status: 422,
    errorCode: 'idempotency_key_reused',
    template:
      'this Idempotency-Key was used within the last 24 hours for a different request; use a new key for a new request',
  },
} satisfies Record<string, ServiceCatalogEntry>;
