import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ServiceError } from '../core/errors.js';
import type { RateLimiter } from '../http/rate-limit.js';
import { createTokenVerifier } from './tokens.js';

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
 * Requires a valid application token on every matched /api/v1 route except those marked
 * `config: {public: true}`; sets request.organizationId, then applies the per-token rate limit.
 */
export function installAuth(app: FastifyInstance, limiter: RateLimiter | null): void {
  app.decorateRequest('organizationId', '');
  const verifyToken = createTokenVerifier(app.service.signingKey);
  app.addHook('onRequest', async (request) => {
    const url = request.routeOptions.url;
    // Unmatched routes go to the 404 handler; public routes need no token.
    if (url === undefined || !url.startsWith(API_PREFIX) || request.routeOptions.config.public) return;
    const token = bearerToken(request);
    const check = await verifyToken(token, app.service.now());
    if (!check.ok) throw new ServiceError('H401', { message: check.reason });
    request.organizationId = check.organizationId;
    limiter?.take(token);
  });
}
