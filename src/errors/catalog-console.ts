/**
 * K: errors the web console answers over HTTP (`recipe console`). Each has the HTTP status and the
 * snake_case error_code of the body {message, error_code}. Owned by src/console/.
 */
export interface ConsoleCatalogEntry {
  status: number;
  errorCode: string;
  template: string;
}

export const consoleCodes = {
  K400: { status: 400, errorCode: 'invalid_request', template: '{message}' },
  K401: {
    status: 401,
    errorCode: 'unauthorized',
    template:
      'this console needs its token: open the URL `recipe console` printed, or send Authorization: Bearer <token>',
  },
  K403_HOST: {
    status: 403,
    errorCode: 'forbidden_host',
    template:
      'the console answers only requests addressed to its own host name ({allowed}); got Host "{host}". Start it with --token to accept other names',
  },
  K404: { status: 404, errorCode: 'not_found', template: '{message}' },
  K405: { status: 405, errorCode: 'method_not_allowed', template: 'the console is read-only: {method} is not allowed' },
  K500: { status: 500, errorCode: 'internal_error', template: 'internal error' },
  K502: { status: 502, errorCode: 'service_unreachable', template: 'the connector service: {message}' },
  K503: { status: 503, errorCode: 'journal_unavailable', template: '{message}' },
} satisfies Record<string, ConsoleCatalogEntry>;
