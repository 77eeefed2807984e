import type { FastifyInstance } from 'fastify';
import { ServiceError } from '../core/errors.js';

/**
 * Deepest nesting of objects and arrays a request body may have. Parsing deeper JSON works, but every
 * later step that walks it (validation, hashing a query, copying a result) would recurse as deep, and a
 * 10,000-deep body overflows the stack: refused at the door instead.
 */
export const MAX_JSON_DEPTH = 100;

/** True when the JSON text nests deeper than max (brackets inside strings do not count). */
export function nestsDeeperThan(text: string, max: number): boolean {
  // A body shorter than 2·max characters cannot open max brackets and close them all.
  if (text.length <= 2 * max) return false;
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i++; // backslash: skip the escaped character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x7b || c === 0x5b) {
      if (++depth > max) return true;
    } else if (c === 0x7d || c === 0x5d) depth--;
  }
  return false;
}

/** A lone surrogate: with the u flag a well-formed pair is one code point, so only an unpaired half is Cs. */
const LONE_SURROGATE = /\p{Cs}/u;

/** A JSON escape of a surrogate (\uD800-\uDFFF): only text holding one can parse to a lone surrogate. */
const SURROGATE_ESCAPE = /\\u[dD][89a-fA-F]/;

/**
 * The body path ("params.properties.email", "select_fields.0") of the first string, key or value, holding
 * a lone surrogate, or null. Such a string has no UTF-8 form: stored, it would come back as U+FFFD.
 */
export function findLoneSurrogate(value: unknown, path = ''): { field: string; code: string } | null {
  const at = (key: string) => (path === '' ? key : `${path}.${key}`);
  if (typeof value === 'string') {
    const m = LONE_SURROGATE.exec(value);
    return m ? { field: path || 'body', code: m[0].charCodeAt(0).toString(16) } : null;
  }
  if (typeof value !== 'object' || value === null) return null;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const hit = findLoneSurrogate(value[i], at(String(i)));
      if (hit) return hit;
    }
    return null;
  }
  for (const [key, v] of Object.entries(value)) {
    const m = LONE_SURROGATE.exec(key);
    if (m) return { field: at(key.replace(/\p{Cs}/gu, '\uFFFD')), code: m[0].charCodeAt(0).toString(16) };
    const hit = findLoneSurrogate(v, at(key));
    if (hit) return hit;
  }
  return null;
}

/**
 * JSON is the only request body type. The default text/plain parser goes (other types get 415), and an
 * empty application/json body counts as no body, as many clients send the header on every request
 * (DELETE, GET); routes that need a body then say so through their schema. Non-empty bodies go through
 * Fastify's own parser, which refuses __proto__ and constructor.prototype keys. A string (key or value)
 * holding a lone surrogate is refused here, once for every route, rather than stored garbled.
 */
export function installJsonParser(app: FastifyInstance): void {
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('text/plain');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = typeof body === 'string' ? body : body.toString('utf8');
    if (text.trim() === '') {
      done(null, undefined);
      return;
    }
    if (nestsDeeperThan(text, MAX_JSON_DEPTH)) {
      done(new ServiceError('H400_JSON_TOO_DEEP', { limit: MAX_JSON_DEPTH }, { field: 'body' }), undefined);
      return;
    }
    // The default parser answers through `done`; its return value carries nothing.
    void parseJson(request, text, (err, parsed) => {
      const suspect = SURROGATE_ESCAPE.test(text) || LONE_SURROGATE.test(text);
      const lone = err || !suspect ? null : findLoneSurrogate(parsed);
      if (lone) done(new ServiceError('H400_LONE_SURROGATE', lone, { field: lone.field }), undefined);
      else done(err, parsed);
    });
  });
}
