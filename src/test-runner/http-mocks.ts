import { makeDiagnostic } from '../source/index.js';
import type { Checker } from './checker.js';
import { parseJson } from './exchange.js';
import type { Expected } from './expected.js';
import { matchExpected, type Bindings } from './match.js';
import type { HttpMockAnswer, HttpMockRule } from './test-file.js';

type Raw = Record<string, unknown>;

/** A request to a URL outside the connector API, as an http mock or an `expect.writes` entry sees it. */
export interface HttpRequestSeen {
  readonly method: string;
  /** Absolute URL, query included. */
  readonly url: string;
  /** Lower-case names. */
  readonly headers: Readonly<Record<string, string>>;
  readonly body?: string | undefined;
}

/** Answer fields that make sense only in a connector's envelope (T013 in an http mock). */
const ENVELOPE_FIELDS = ['result', 'connector_metadata', 'message', 'error_code'];

/**
 * Compiles an http mock: `http:` is "METHOD URL", "URL", or {method, url, headers, body}; `respond` gives
 * status, headers and body (a map or list is sent as JSON, text as text/plain, no body as an empty one).
 */
export function compileHttpMockRule(raw: Raw, pointer: string, ctx: Checker): HttpMockRule {
  const spec = typeof raw.http === 'string' ? splitShorthand(raw.http) : (raw.http as Raw);
  const url = String(spec.url);
  const respond = Array.isArray(raw.respond) ? (raw.respond as Raw[]) : [raw.respond as Raw];
  respond.forEach((answer, i) => {
    const field = ENVELOPE_FIELDS.find((f) => answer[f] !== undefined);
    const at = Array.isArray(raw.respond) ? `${pointer}/respond/${i}/${field}` : `${pointer}/respond/${field}`;
    if (field !== undefined) ctx.diagnostics.push(makeDiagnostic('T013', { field }, ctx.atKey(at)));
  });
  const p = `${pointer}/http`;
  return {
    kind: 'http',
    ...(typeof spec.method === 'string' ? { method: spec.method.toUpperCase() } : {}),
    url,
    urlTest: urlPattern(url),
    ...(spec.headers !== undefined ? { headers: lowerKeys(ctx.expected(spec.headers, `${p}/headers`)) } : {}),
    ...(spec.body !== undefined ? { body: ctx.expected(spec.body, `${p}/body`) } : {}),
    answers: respond.map(toHttpAnswer),
    at: ctx.at(pointer),
  };
}

/** Whether `rule` matches `req`: method, URL pattern, then headers and body partially. */
export async function matchesHttp(rule: HttpMockRule, req: HttpRequestSeen, bindings: Bindings): Promise<boolean> {
  if (rule.method !== undefined && rule.method !== req.method) return false;
  if (!rule.urlTest.test(rule.url.includes('?') ? req.url : withoutQuery(req.url))) return false;
  if (rule.headers && (await matchExpected(rule.headers, req.headers, 'headers', bindings)).length > 0) return false;
  if (rule.body && (await matchExpected(rule.body, bodyOf(req), 'body', bindings)).length > 0) return false;
  return true;
}

/** The request's body as a test file compares it: JSON parsed when the request says JSON, else the text. */
export function bodyOf(req: HttpRequestSeen): unknown {
  if (req.body === undefined || req.body === '') return null;
  const type = (req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
  if (type === 'application/json' || type.endsWith('+json')) return parseJson(req.body) ?? req.body;
  return req.body;
}

/**
 * A URL pattern: `*` matches any run of characters (slashes included), everything else itself. A pattern
 * without a query matches the URL without its query.
 */
export function urlPattern(pattern: string): RegExp {
  const parts = pattern.split('*').map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'));
  return new RegExp(`^${parts.join('.*')}$`);
}

function withoutQuery(url: string): string {
  const q = url.indexOf('?');
  return q === -1 ? url : url.slice(0, q);
}

/** "POST https://..." or "https://...". */
function splitShorthand(text: string): Raw {
  const m = /^([A-Za-z]+)\s+(\S+)$/.exec(text.trim());
  return m ? { method: m[1], url: m[2] } : { url: text.trim() };
}

/** Header names are matched in lower case, as requests carry them; each entry keeps where it was written. */
function lowerKeys(headers: Expected): Expected {
  if (headers.kind !== 'object') return headers;
  return {
    ...headers,
    entries: Object.fromEntries(Object.entries(headers.entries).map(([k, v]) => [k.toLowerCase(), v])),
  };
}

function toHttpAnswer(raw: Raw): HttpMockAnswer {
  const status = typeof raw.status === 'number' ? raw.status : 200;
  const given: Record<string, string> = {};
  for (const [k, v] of Object.entries((raw.headers ?? {}) as Record<string, string>)) given[k.toLowerCase()] = v;
  const body = raw.body;
  if (body === undefined || body === null) return { status, headers: given, body: '' };
  if (typeof body === 'string') return { status, headers: { 'content-type': 'text/plain', ...given }, body };
  return { status, headers: { 'content-type': 'application/json', ...given }, body: JSON.stringify(body) };
}
