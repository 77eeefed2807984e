import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { ConsoleError } from './errors.js';

/** The header an action carries the console's CSRF token in: a cross-site form or image cannot set it. */
export const CSRF_HEADER = 'x-recipe-csrf';

/** The paths that act (POST); every other path answers GET and HEAD only. */
const ACTION_PATH = /^\/api\/(runs|runs\/[^/?]+\/(cancel|redrive)|schedules\/[^/?]+\/(pause|resume))$/;

/** True for a POST to one of the console's actions. */
export function isAction(method: string, url: string): boolean {
  return method === 'POST' && ACTION_PATH.test(url.split('?')[0] ?? '');
}

/** A fresh CSRF token for one console process: the pages read it from GET /api/info (same origin only). */
export function newCsrfToken(): string {
  return randomBytes(32).toString('base64url');
}

/**
 * The proofs an action must carry beside the console's token (checked before this, in access.ts):
 *  1. it comes from the console's own pages as the browser says: Sec-Fetch-Site, when sent, is same-origin,
 *     and Origin, when sent, is this console's (http or https, the Host the request names);
 *  2. a JSON body: an HTML form can post only urlencoded, multipart or text/plain;
 *  3. the CSRF token in the X-Recipe-CSRF header: a page elsewhere cannot read GET /api/info (no CORS
 *     headers) and cannot set a custom header on a cross-site request without a preflight the console fails.
 * A script (curl) sends no Origin and no Sec-Fetch-Site: it needs the token (1) and the CSRF token (3).
 */
export function checkActionProof(request: FastifyRequest, csrfToken: string): void {
  const site = request.headers['sec-fetch-site'];
  if (site !== undefined && site !== 'same-origin')
    throw new ConsoleError('K505', { what: `Sec-Fetch-Site: ${String(site)}` });
  const origin = request.headers.origin;
  if (origin !== undefined) {
    const host = request.headers.host ?? '';
    if (origin !== `http://${host}` && origin !== `https://${host}`)
      throw new ConsoleError('K505', { what: `Origin ${origin.slice(0, 200)} is not this console's` });
  }
  const type = (request.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
  if (type !== 'application/json') throw new ConsoleError('K512', { type: type === '' ? 'none' : type.slice(0, 100) });
  const given = request.headers[CSRF_HEADER];
  if (typeof given !== 'string' || !same(given, csrfToken)) throw new ConsoleError('K504');
}

function same(given: string, expected: string): boolean {
  const g = Buffer.from(given, 'utf8');
  const e = Buffer.from(expected, 'utf8');
  return g.length === e.length && timingSafeEqual(g, e);
}
