import type { Checker } from './checker.js';
import { matchExpected } from './match.js';
import type { MockAnswer, MockRule } from './test-file.js';

type Raw = Record<string, unknown>;

/** Default error_code of a mocked error status, as the service would say it. */
const ERROR_CODES: Record<number, string> = {
  400: 'validation_error',
  401: 'unauthorized',
  403: 'forbidden',
  404: 'not_found',
  409: 'conflict',
  422: 'value_error',
  429: 'rate_limited',
  500: 'internal_error',
  502: 'bad_gateway',
  503: 'service_unavailable',
  504: 'gateway_timeout',
};

/** Compiles a `mock:` entry: what it matches and the HTTP answers it gives, in turn. */
export function compileMockRule(raw: Raw, pointer: string, ctx: Checker): MockRule {
  const respond = Array.isArray(raw.respond) ? (raw.respond as Raw[]) : [raw.respond as Raw];
  return {
    entity: String(raw.entity),
    ...(typeof raw.action === 'string' ? { action: raw.action } : {}),
    ...(raw.params !== undefined ? { params: ctx.expected(raw.params, `${pointer}/params`) } : {}),
    answers: respond.map(toAnswer),
    at: ctx.at(pointer),
  };
}

/** An answer as the service would send it: an envelope around `result`, an error body, or `body` as given. */
function toAnswer(raw: Raw): MockAnswer {
  const status = typeof raw.status === 'number' ? raw.status : 200;
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  for (const [k, v] of Object.entries((raw.headers ?? {}) as Record<string, string>)) headers[k.toLowerCase()] = v;
  if (raw.body !== undefined) return { status, headers, body: raw.body };
  if (status >= 200 && status < 300)
    return {
      status,
      headers,
      body: {
        status: 'success',
        result: raw.result ?? null,
        connector_metadata: raw.connector_metadata ?? {},
        execution_metadata: { connector_instance_id: 'mock', execution_time_ms: 0 },
      },
    };
  const message = typeof raw.message === 'string' ? raw.message : `mocked HTTP ${status}`;
  const errorCode = typeof raw.error_code === 'string' ? raw.error_code : (ERROR_CODES[status] ?? 'error');
  return { status, headers, body: { message, errors: [{ field: null, message, error_code: errorCode, details: {} }] } };
}

/** The mocks of one case: which rule answers an execute request, and how many times each has answered. */
export class MockSet {
  private readonly used = new Map<MockRule, number>();

  constructor(
    private readonly rules: readonly MockRule[],
    private readonly bindings: Readonly<Record<string, unknown>>,
  ) {}

  get empty(): boolean {
    return this.rules.length === 0;
  }

  /** The answer of the first rule that matches, or undefined (the request then goes to the service). */
  async answer(entity: string, action: string, params: unknown): Promise<MockAnswer | undefined> {
    for (const rule of this.rules) {
      if (rule.entity !== entity || (rule.action !== undefined && rule.action !== action)) continue;
      if (rule.params && (await matchExpected(rule.params, params, 'params', this.bindings)).length > 0) continue;
      const n = this.used.get(rule) ?? 0;
      this.used.set(rule, n + 1);
      return rule.answers[Math.min(n, rule.answers.length - 1)];
    }
    return undefined;
  }
}
