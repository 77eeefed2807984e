import { timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { isLoopback } from '../listen/bind-policy.js';
import { checkActionProof, isAction } from './csrf.js';
import { ConsoleError } from './errors.js';

/** The cookie a browser keeps the token in after opening the printed URL once. */
export const TOKEN_COOKIE = 'recipe_console_token';

/**
 * Who may read the console. Without a token (loopback only), requests must address the console by a
 * loopback name, so a web page elsewhere cannot reach it through DNS rebinding. With a token, every
 * request must carry it: as a bearer header, the cookie set on first visit, or `?token=` on a page URL
 * (answered with the cookie and a redirect to the same URL without the token, so it leaves the address bar).
 * The few actions (POST, csrf.ts) need all that and, beside it, proof that the console's own page sent them.
 * `secure` (the console serves HTTPS) marks the cookie Secure, so a browser never sends it over plain HTTP.
 */
export function installAccess(
  app: FastifyInstance,
  token: string | undefined,
  csrfToken: string,
  secure: boolean,
): void {
  const expected = token === undefined ? undefined : Buffer.from(token, 'utf8');
  app.addHook('onRequest', async (request, reply) => {
    const action = isAction(request.method, request.url);
    if (request.method !== 'GET' && request.method !== 'HEAD' && !action)
      throw new ConsoleError('K405', { method: request.method });
    if (!expected) {
      const host = request.headers.host ?? '';
      const name = host.replace(/:\d+$/, '');
      if (!isLoopback(name)) throw new ConsoleError('K403_HOST', { host, allowed: '127.0.0.1, localhost, [::1]' });
    } else {
      const fromQuery = action ? undefined : queryToken(request);
      if (fromQuery !== undefined && matches(fromQuery, expected)) {
        return redirectWithCookie(request, reply, fromQuery, secure || forwardedHttps(request));
      }
      const given = bearer(request) ?? cookie(request);
      if (given === undefined || !matches(given, expected)) throw new ConsoleError('K401');
    }
    if (action) checkActionProof(request, csrfToken);
  });
}

/**
 * True when a reverse proxy in front says the browser came over HTTPS (X-Forwarded-Proto: https, as Caddy
 * sends by default and nginx with `proxy_set_header X-Forwarded-Proto $scheme`). Trusting it is safe here:
 * all it can do is make the cookie Secure, which only keeps it off plain HTTP.
 */
function forwardedHttps(request: FastifyRequest): boolean {
  const h = request.headers['x-forwarded-proto'];
  const first = (Array.isArray(h) ? h[0] : h)?.split(',')[0]?.trim().toLowerCase();
  return first === 'https';
}

function matches(given: string, expected: Buffer): boolean {
  const g = Buffer.from(given, 'utf8');
  return g.length === expected.length && timingSafeEqual(g, expected);
}

function queryToken(request: FastifyRequest): string | undefined {
  const q = request.query as Record<string, unknown> | undefined;
  return typeof q?.token === 'string' ? q.token : undefined;
}

function bearer(request: FastifyRequest): string | undefined {
  const h = request.headers.authorization;
  return typeof h === 'string' && h.startsWith('Bearer ') ? h.slice(7) : undefined;
}

function cookie(request: FastifyRequest): string | undefined {
  const header = request.headers.cookie;
  if (typeof header !== 'string') return undefined;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === TOKEN_COOKIE) {
      try {
        return decodeURIComponent(part.slice(eq + 1).trim());
      } catch {
        return undefined;
      }
    }
  }
  return undefined;
}

function redirectWithCookie(
  request: FastifyRequest,
  reply: FastifyReply,
  token: string,
  secure: boolean,
): FastifyReply {
  const attributes = `HttpOnly; SameSite=Strict; Path=/${secure ? '; Secure' : ''}`;
  return reply
    .header('set-cookie', `${TOKEN_COOKIE}=${encodeURIComponent(token)}; ${attributes}`)
    .header('cache-control', 'no-store')
    .redirect(sameOriginPath(request.url), 303);
}

/**
 * The request's path and query without the token, as a Location that stays on the console. The URL parser
 * turns `/.//evil.example/x` into the path `//evil.example/x`, which a browser reads as another host (and
 * `/\evil.example` likewise): leading slashes are folded into one, so the redirect can name no other host.
 */
function sameOriginPath(requestUrl: string): string {
  let url: URL;
  try {
    url = new URL(requestUrl, 'http://console.invalid');
  } catch {
    return '/';
  }
  url.searchParams.delete('token');
  return `/${url.pathname.replace(/^[/\\]+/, '')}${url.search}`;
}
