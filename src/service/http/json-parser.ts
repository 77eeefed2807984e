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

/**
 * JSON is the only request body type. The default text/plain parser goes (other types get 415), and an
 * empty application/json body counts as no body, as many clients send the header on every request
 * (DELETE, GET); routes that need a body then say so through their schema. Non-empty bodies go through
 * Fastify's own parser, which refuses __proto__ and constructor.prototype keys.
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
    void parseJson(request, text, done);
  });
}
