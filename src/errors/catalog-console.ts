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
  K405: {
    status: 405,
    errorCode: 'method_not_allowed',
    template:
      '{method} is not allowed here: the console acts only through POST /api/runs, /api/runs/:id/cancel, /redrive and /api/schedules/:name/pause, /resume',
  },
  // K530-K539: submitting a run from the console (POST /api/runs).
  K530: { status: 422, errorCode: 'invalid_recipe', template: '{message}' },
  K531: {
    status: 422,
    errorCode: 'recipe_outside_folder',
    template: '{message}',
  },
  K500: { status: 500, errorCode: 'internal_error', template: 'internal error' },
  K502: { status: 502, errorCode: 'service_unreachable', template: 'the connector service: {message}' },
  K503: { status: 503, errorCode: 'journal_unavailable', template: '{message}' },
  // K504-K519: the console's actions (cancel, redrive, pause/resume a schedule) and their CSRF checks.
  K504: {
    status: 403,
    errorCode: 'csrf_token_missing',
    template:
      "an action needs the console page's CSRF token in the X-Recipe-CSRF header (GET /api/info gives it as actions.csrf_token)",
  },
  K505: {
    status: 403,
    errorCode: 'cross_site_request',
    template: 'the console refuses an action sent from another site ({what})',
  },
  K506: { status: 409, errorCode: 'action_unavailable', template: '{message}' },
  K507: { status: 409, errorCode: 'run_not_cancellable', template: '{code} {message}' },
  K508: { status: 409, errorCode: 'redrive_refused', template: '{code} {message}' },
  K509: { status: 404, errorCode: 'not_found', template: '{code} {message}' },
  K510: { status: 409, errorCode: 'schedule_state', template: '{code} {message}' },
  K511: { status: 503, errorCode: 'fleet_unavailable', template: '{code} {message}' },
  K512: {
    status: 415,
    errorCode: 'unsupported_media_type',
    template: 'an action takes a JSON body (Content-Type: application/json), got {type}',
  },
  // K520-K524: the fleet page (GET /api/fleet). Same error_code as K511: no fleet to read, or its store is down.
  K520: { status: 503, errorCode: 'fleet_unavailable', template: '{message}' },
} satisfies Record<string, ConsoleCatalogEntry>;
