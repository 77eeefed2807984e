import type { FastifyInstance, FastifyRequest, onRequestHookHandler } from 'fastify';
import { ServiceError } from '../core/errors.js';
import type { RateLimiter } from '../http/rate-limit.js';
import { createTokenVerifier, type TokenCheck } from './tokens.js';

const API_PREFIX = '/api/v1/';

/** The bearer token of a request, or an H401 that says what is wrong (never echoing the token). */
function bearerToken(request: FastifyRequest): string {
  const header = request.headers.authorization;
  if (!header)
    throw new ServiceError(
      'H401',
      { message: 'missing Authorization header; send "Authorization: Bearer <token>"' },
      { field: 'header.authorization' },
    );
  const m = /^Bearer\s+(\S+)$/i.exec(header);
  if (!m?.[1])
    throw new ServiceError(
      'H401',
      { message: 'malformed Authorization header; expected "Bearer <token>"' },
      { field: 'header.authorization' },
    );
  return m[1];
}

/**
 * Requires a valid application token on every /api/v1 route except those marked `config: {public: true}`;
 * sets request.organizationId, then applies the per-token rate limit. The hook is attached to each route
 * as it is registered (so no request reads its route's options to decide), and answers synchronously for
 * a token verified before: on a cheap route the per-request cost of auth was most of the request.
 */
export function installAuth(app: FastifyInstance, limiter: RateLimiter | null): void {
  app.decorateRequest('organizationId', '');
  const verifyToken = createTokenVerifier(app.service.signingKey);
  const admit = (request: FastifyRequest, token: string, check: TokenCheck): void => {
    if (!check.ok) throw new ServiceError('H401', { message: check.reason });
    request.organizationId = check.organizationId;
    limiter?.take(token);
  };
  const authenticate: onRequestHookHandler = (request, _reply, done) => {
    let token: string;
    let check: TokenCheck | Promise<TokenCheck>;
    try {
      token = bearerToken(request);
      check = verifyToken(token, app.service.now());
      if (!(check instanceof Promise)) {
        admit(request, token, check);
        done();
        return;
      }
    } catch (err) {
      done(err as Error);
      return;
    }
    check.then(
      (c) => {
        try {
          admit(request, token, c);
          done();
        } catch (err) {
          done(err as Error);
        }
      },
      (err: unknown) => done(err as Error),
    );
  };
  app.addHook('onRoute', (route) => {
    if (!route.url.startsWith(API_PREFIX) || (route.config as { public?: boolean } | undefined)?.public) return;
    const own = route.onRequest;
    route.onRequest = own === undefined ? [authenticate] : [authenticate, ...(Array.isArray(own) ? own : [own])];
  });
}
