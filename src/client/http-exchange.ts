import { RecipeError } from '../errors/index.js';
import type { HttpRequest, HttpResponse } from './http.js';
import type { Redactor } from './redact.js';

/** A request outside the connector API (a recipe's http step), as plain data: what the journal can record. */
export interface HttpCallRequest {
  readonly method: HttpRequest['method'];
  /** Absolute http(s) URL, query included. */
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
  /** The body as sent (already JSON-encoded for a JSON body). */
  readonly body?: string;
  /** Statuses that count as success: numbers or classes such as "2xx". */
  readonly successStatus: readonly (number | string)[];
}

/** The answer to an http call, plain data: the body parsed by its content type. */
export interface HttpAnswer {
  readonly status: number;
  /** Lower-case header names. */
  readonly headers: Readonly<Record<string, string>>;
  /** JSON types → the value; text (text/*, xml, form, javascript) → a string; an empty body → null; else base64. */
  readonly body: unknown;
}

/** GET, HEAD, PUT and DELETE can be repeated without changing the outcome (RFC 9110 idempotent methods). */
export function isIdempotentMethod(method: string): boolean {
  return method === 'GET' || method === 'HEAD' || method === 'PUT' || method === 'DELETE';
}

/** Whether `status` is one of the success statuses (a number, or a class such as "2xx"). */
export function isSuccessStatus(status: number, success: readonly (number | string)[]): boolean {
  return success.some((s) => (typeof s === 'number' ? s === status : Math.floor(status / 100) === Number(s[0])));
}

/** The answer as plain data: headers flattened, the body parsed by its content type. */
export function readHttpAnswer(res: HttpResponse, req: HttpCallRequest, redactor: Redactor): HttpAnswer {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(res.headers)) if (value !== undefined) headers[name] = value;
  return { status: res.status, headers, body: parseBody(res, req, redactor) };
}

function parseBody(res: HttpResponse, req: HttpCallRequest, redactor: Redactor): unknown {
  if (res.body.length === 0) return null;
  const type = (res.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
  if (type === 'application/json' || type.endsWith('+json')) {
    try {
      return JSON.parse(res.body.toString('utf8'));
    } catch {
      throw new RecipeError('C010', {
        entity: 'http',
        action: req.method,
        reason: redactor.redact(`${where(req.url)} said ${type} but the body is not JSON (${res.body.length} bytes)`),
      });
    }
  }
  const text =
    type === '' ||
    type.startsWith('text/') ||
    type.endsWith('+xml') ||
    ['application/xml', 'application/javascript', 'application/x-www-form-urlencoded'].includes(type);
  return text ? res.body.toString('utf8') : res.body.toString('base64');
}

/** C013 for an answer whose status is not a success: method, URL (without its query), status, body excerpt. */
export function httpStatusError(res: HttpResponse, req: HttpCallRequest, redactor: Redactor): RecipeError {
  const text = res.body.toString('utf8').replace(/\s+/g, ' ').trim();
  const detail = text === '' ? '(empty body)' : text.length > 300 ? `${text.slice(0, 300)}…` : text;
  return new RecipeError('C013', {
    method: req.method,
    url: redactor.redact(where(req.url)),
    status: res.status,
    detail: redactor.redact(detail),
  });
}

/** origin + path: the query may be long, and is where tokens tend to be. */
export function where(url: string): string {
  try {
    const u = new URL(url);
    return `${u.origin}${u.pathname}`;
  } catch {
    return url;
  }
}
