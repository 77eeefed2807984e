import type { CatalogEntry } from './types.js';

/**
 * G: webhook triggers and result callbacks (src/triggers/); M: `recipe mcp` (src/mcp/). G001–G049 and
 * M001–M029 are this lane's. The codes a trigger answers over HTTP also carry the status and the snake_case
 * error_code of the body {code, error_code, message, field?} (triggerHttpCodes below).
 */
export const triggerCodes = {
  G001: { template: 'no trigger named "{name}" (known: {known})', class: 'invalid' },
  G002: { template: '{file}: {message}', class: 'invalid' },
  G003: { template: '{file}: trigger "{name}" is declared twice (also in {other})', class: 'invalid' },
  G004: { template: '{file}: the secret variable {variable} is not set in the environment', class: 'config' },
  G005: { template: '{file}: the recipe {recipe} is invalid: {message}', class: 'invalid' },
  G006: { template: '{flag}: {reason}', class: 'invalid' },
  G010: {
    template: 'the signature does not match: sign "<timestamp>.<raw body>" with HMAC-SHA256 and the shared secret',
    class: 'invalid',
  },
  G011: {
    template: 'missing or malformed X-Recipe-Signature header: expected "t=<unix seconds>,v1=<hex HMAC-SHA256>"',
    class: 'invalid',
  },
  G012: {
    template: 'the signature timestamp is {age} seconds away from now; the replay window is {window} seconds',
    class: 'invalid',
  },
  G013: { template: 'the payload is not valid JSON: {reason}', class: 'invalid' },
  G014: { template: 'the payload is invalid at {field}: {message}', class: 'invalid' },
  G015: { template: 'the inputs mapped from the payload are invalid: {message}', class: 'invalid' },
  G016: { template: 'the payload is larger than {limit} bytes', class: 'invalid' },
  G017: { template: 'trigger "{name}" accepts at most {limit} deliveries a minute; retry later', class: 'run' },
  G018: { template: 'this triggers server needs its token: send Authorization: Bearer <token>', class: 'config' },
  G019: { template: 'X-Delivery-Id must be 1 to 200 printable characters', class: 'invalid' },
  G020: { template: 'malformed request: {message}', class: 'invalid' },
  G021: { template: 'only POST /hooks/{name} is served here; got {method} {path}', class: 'invalid' },
  G022: { template: 'internal error', class: 'run' },
  G023: { template: '?wait must be a duration of at most 300s such as 30s or 2m; got "{wait}"', class: 'invalid' },
  G024: {
    template:
      'the recipe of trigger "{name}" no longer passes its checks (fix it; the server need not restart): {message}',
    class: 'invalid',
  },
  G030: { template: 'result callback to {url} failed after {attempts} attempts: {reason}', class: 'run' },
  G031: { template: '--callback {url}: {reason}', class: 'invalid' },
  G040: {
    template:
      "{file}: runs_on: fleet needs the fleet's store: give `recipe triggers` --redis or --postgres (or set RECIPE_REDIS_URL or RECIPE_POSTGRES_URL)",
    class: 'config',
  },
  G041: {
    template:
      'the result callback of run {runId} is signed with {variable}, which is not set on this worker: nothing was posted',
    class: 'config',
  },
  G042: { template: 'the run could not be enqueued on the fleet: {reason}; retry the delivery', class: 'run' },
  M001: { template: 'no tool named "{name}"', class: 'invalid' },
  M002: {
    template: 'apply: true was refused: this MCP server was started without --allow-writes, so every call is a dry run',
    class: 'invalid',
  },
  M003: { template: 'invalid arguments for {tool}: {message}', class: 'invalid' },
  M004: { template: 'no run {runId} in the journal', class: 'invalid' },
  M005: { template: 'the recipe {file} is invalid: {message}', class: 'invalid' },
  M006: { template: '{flag}: {reason}', class: 'invalid' },
} satisfies Record<string, CatalogEntry>;

/** How a trigger's HTTP answer carries a G code: its status and the snake_case error_code of the body. */
export interface TriggerHttpEntry {
  readonly status: number;
  readonly errorCode: string;
}

export const triggerHttpCodes = {
  G001: { status: 404, errorCode: 'unknown_trigger' },
  G010: { status: 401, errorCode: 'bad_signature' },
  G011: { status: 401, errorCode: 'missing_signature' },
  G012: { status: 401, errorCode: 'stale_timestamp' },
  G013: { status: 400, errorCode: 'malformed_payload' },
  G014: { status: 422, errorCode: 'invalid_payload' },
  G015: { status: 422, errorCode: 'invalid_inputs' },
  G016: { status: 413, errorCode: 'payload_too_large' },
  G017: { status: 429, errorCode: 'rate_limited' },
  G018: { status: 401, errorCode: 'unauthorized' },
  G019: { status: 400, errorCode: 'invalid_delivery_id' },
  G020: { status: 400, errorCode: 'malformed_request' },
  G021: { status: 404, errorCode: 'not_found' },
  G022: { status: 500, errorCode: 'internal_error' },
  G023: { status: 400, errorCode: 'invalid_wait' },
  G024: { status: 503, errorCode: 'recipe_invalid' },
  G042: { status: 503, errorCode: 'fleet_unavailable' },
} satisfies Partial<Record<keyof typeof triggerCodes, TriggerHttpEntry>>;
