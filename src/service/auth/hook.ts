import type { FastifyInstance, FastifyReply, FastifyRequest, onRequestHookHandler } from 'fastify';
import { ServiceError } from '../core/errors.js';
import { rateLimitHeaders, type RateLimiter } from '../http/rate-limit.js';
import { checkOrganization, ORGANIZATION_HEADER_FIELD } from './organization.js';
import { createTokenVerifier, type TokenCheck, type TokenKind } from './tokens.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The kind of the bearer token; only routes that list other kinds in config.tokenKinds see them. */
    tokenKind: TokenKind;
    /** The workspace of a scoped or widget token; null for an application token. */
    tokenWorkspaceId: string | null;
  }
  interface FastifyContextConfig {
    /** Token kinds the route accepts (default: application tokens only). */
    tokenKinds?: readonly TokenKind[];
  }
}

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

/** Why a route refuses a valid token of another kind. */
function wrongKind(kind: TokenKind, accepted: readonly TokenKind[]): ServiceError {
  const wanted = accepted.includes('application') ? 'an application token' : 'a scoped token';
  return new ServiceError(
    'H403',
    { message: `this endpoint needs ${wanted}; a${kind === 'application' ? 'n' : ''} ${kind} token cannot use it` },
    { field: 'header.authorization' },
  );
}

/**
 * Requires a valid token on every /api/v1 route except those marked `config: {public: true}`: an
 * application token, or the kinds the route lists in `config.tokenKinds`. Sets request.organizationId
 * (and the token's kind and workspace), checks the optional x-organization-id header against it, then
 * applies the per-token rate limit. The hook is attached to each route as it is registered (so no request
 * reads its route's options to decide), and answers synchronously for a token verified before: on a cheap
 * route the per-request cost of auth was most of the request.
 */
export function installAuth(app: FastifyInstance, limiter: RateLimiter | null): void {
  app.decorateRequest('organizationId', '');
  app.decorateRequest('tokenKind', 'application');
  app.decorateRequest('tokenWorkspaceId', null);
  const verifyToken = createTokenVerifier(app.service.signingKey);
  const admit = (
    request: FastifyRequest,
    reply: FastifyReply,
    token: string,
    check: TokenCheck,
    accepted: readonly TokenKind[],
  ) => {
    if (!check.ok) throw new ServiceError('H401', { message: check.reason });
    if (!accepted.includes(check.kind)) throw wrongKind(check.kind, accepted);
    request.organizationId = check.organizationId;
    request.tokenKind = check.kind;
    request.tokenWorkspaceId = check.workspaceId;
    checkOrganization(request.headers['x-organization-id'], check.organizationId, ORGANIZATION_HEADER_FIELD);
    if (limiter) reply.headers(rateLimitHeaders(limiter.take(token)));
  };
  const authenticateFor =
    (accepted: readonly TokenKind[]): onRequestHookHandler =>
    (request, reply, done) => {
      let token: string;
      let check: TokenCheck | Promise<TokenCheck>;
      try {
        token = bearerToken(request);
        check = verifyToken(token, app.service.now());
        if (!(check instanceof Promise)) {
          admit(request, reply, token, check, accepted);
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
            admit(request, reply, token, c, accepted);
            done();
          } catch (err) {
            done(err as Error);
          }
        },
        (err: unknown) => done(err as Error),
      );
    };
  const applicationOnly = authenticateFor(['application']);
  app.addHook('onRoute', (route) => {
    const config = route.config as { public?: boolean; tokenKinds?: readonly TokenKind[] } | undefined;
    if (!route.url.startsWith(API_PREFIX) || config?.public) return;
    const authenticate = config?.tokenKinds ? authenticateFor(config.tokenKinds) : applicationOnly;
    const own = route.onRequest;
    route.onRequest = own === undefined ? [authenticate] : [authenticate, ...(Array.isArray(own) ? own : [own])];
  });
}
