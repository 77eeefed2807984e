import type { Checker } from './checker.js';
import { compileHttpMockRule, matchesHttp, type HttpRequestSeen } from './http-mocks.js';
import { matchExpected } from './match.js';
import type { ExecuteMockRule, HttpMockAnswer, MockAnswer, MockRule } from './test-file.js';

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

/** Compiles a `mock:` entry: what it matches (a connector call, or an http request) and the answers it gives. */
export function compileMockRule(raw: Raw, pointer: string, ctx: Checker): MockRule {
  if (raw.http !== undefined) return compileHttpMockRule(raw, pointer, ctx);
  const respond = Array.isArray(raw.respond) ? (raw.respond as Raw[]) : [raw.respond as Raw];
  return {
    kind: 'execute',
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

/** The mocks of one case: which rule answers a request, and how many times each has answered. */
export class MockSet {
  private readonly used = new Map<MockRule, number>();

  constructor(
    private readonly rules: readonly MockRule[],
    private readonly bindings: Readonly<Record<string, unknown>>,
  ) {}

  get empty(): boolean {
    return this.rules.length === 0;
  }

  /** The answer of the first execute rule that matches, or undefined (the request then goes to the service). */
  async answer(entity: string, action: string, params: unknown): Promise<MockAnswer | undefined> {
    for (const rule of this.rules) {
      if (rule.kind !== 'execute' || !(await this.matchesExecute(rule, entity, action, params))) continue;
      return this.next(rule);
    }
    return undefined;
  }

  /** The answer of the first http rule that matches a request outside the connector API, or undefined. */
  async answerHttp(req: HttpRequestSeen): Promise<HttpMockAnswer | undefined> {
    for (const rule of this.rules)
      if (rule.kind === 'http' && (await matchesHttp(rule, req, this.bindings))) return this.next(rule);
    return undefined;
  }

  /** Whether some http rule would answer `req` (nothing is counted: the request is still to be sent). */
  async hasHttp(req: HttpRequestSeen): Promise<boolean> {
    for (const rule of this.rules)
      if (rule.kind === 'http' && (await matchesHttp(rule, req, this.bindings))) return true;
    return false;
  }

  private async matchesExecute(rule: ExecuteMockRule, entity: string, action: string, params: unknown) {
    if (rule.entity !== entity || (rule.action !== undefined && rule.action !== action)) return false;
    return !rule.params || (await matchExpected(rule.params, params, 'params', this.bindings)).length === 0;
  }

  /** The rule's answer for this call: its answers in turn, the last one repeating. */
  private next<R extends MockRule>(rule: R): R['answers'][number] {
    const n = this.used.get(rule) ?? 0;
    this.used.set(rule, n + 1);
    return rule.answers[Math.min(n, rule.answers.length - 1)] as R['answers'][number];
  }
}
