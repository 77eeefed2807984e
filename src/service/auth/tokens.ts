import { SignJWT, jwtVerify, errors as joseErrors } from 'jose';

/** Lifetime of an application token, as the hosted service documents it (15 minutes). */
export const TOKEN_TTL_SECONDS = 900;
const ISSUER = 'recipe-connector-service';

/** Signs an application token carrying the organization, valid for TOKEN_TTL_SECONDS from `now`. */
export async function signApplicationToken(
  key: Uint8Array,
  claims: { organizationId: string; clientId: string },
  now: Date,
  ttlSeconds = TOKEN_TTL_SECONDS,
): Promise<string> {
  return signToken(key, { organization_id: claims.organizationId }, claims.clientId, now, ttlSeconds);
}

/** One signed token: the payload, issued to `subject` by this service, valid for `ttlSeconds` from `now`. */
function signToken(
  key: Uint8Array,
  payload: Record<string, string>,
  subject: string,
  now: Date,
  ttlSeconds: number,
): Promise<string> {
  const iat = Math.floor(now.getTime() / 1000);
  return new SignJWT(payload)
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setIssuer(ISSUER)
    .setSubject(subject)
    .setIssuedAt(iat)
    .setExpirationTime(iat + ttlSeconds)
    .sign(key);
}

/**
 * The kinds of bearer token: an application token (full access to its organization), a scoped token (one
 * workspace, for an end user) and a widget token (one workspace, for a front end). Only application tokens
 * carry no `token_kind` claim, so tokens issued before the other kinds existed still read as applications.
 */
export type TokenKind = 'application' | 'scoped' | 'widget';

/** Signs a scoped or widget token for one workspace of an organization, valid for `ttlSeconds` from `now`. */
export async function signWorkspaceToken(
  key: Uint8Array,
  claims: { organizationId: string; workspaceId: string; kind: 'scoped' | 'widget'; clientId: string },
  now: Date,
  ttlSeconds = TOKEN_TTL_SECONDS,
): Promise<string> {
  const payload = { organization_id: claims.organizationId, workspace_id: claims.workspaceId, token_kind: claims.kind };
  return signToken(key, payload, claims.clientId, now, ttlSeconds);
}

/** What a verified token grants. */
export interface TokenGrant {
  organizationId: string;
  kind: TokenKind;
  /** The one workspace of a scoped or widget token; null for an application token. */
  workspaceId: string | null;
}

/** Why a token was refused; the message is safe to show (it never echoes the token). */
export type TokenCheck = ({ ok: true } & TokenGrant) | { ok: false; reason: string };

/** The grant of a verified payload, or a reason to refuse it. */
function grantOf(payload: Record<string, unknown>): TokenCheck {
  const org = payload['organization_id'];
  if (typeof org !== 'string' || org === '') return { ok: false, reason: 'token carries no organization' };
  const kind = payload['token_kind'];
  if (kind === undefined) return { ok: true, organizationId: org, kind: 'application', workspaceId: null };
  const ws = payload['workspace_id'];
  if ((kind === 'scoped' || kind === 'widget') && typeof ws === 'string' && ws !== '')
    return { ok: true, organizationId: org, kind, workspaceId: ws };
  return { ok: false, reason: 'invalid token' };
}

/**
 * Verifies application tokens against one key and the service clock (see createTokenVerifier); answers
 * synchronously for a token it verified before.
 */
export type TokenVerifier = (token: string, now: Date) => TokenCheck | Promise<TokenCheck>;

/** Tokens remembered at most per verifier; past this the memory starts over. */
const VERIFIED_MAX = 10_000;

/**
 * Verifies signature, issuer and expiry against the service clock, remembering tokens already verified
 * (organization and expiry): verifying the HMAC through WebCrypto on every request was a sixth of the
 * service's CPU under load (profile of execute get); a token's signature and claims cannot change, so
 * only its expiry is checked again. One verifier per app (the auth hook makes it).
 */
export function createTokenVerifier(key: Uint8Array): TokenVerifier {
  const known = new Map<string, { grant: TokenGrant; expMs: number }>();
  const verify = async (token: string, now: Date): Promise<TokenCheck> => {
    try {
      const { payload } = await jwtVerify(token, key, {
        algorithms: ['HS256'],
        issuer: ISSUER,
        currentDate: now,
        requiredClaims: ['exp', 'organization_id'],
      });
      const check = grantOf(payload);
      if (check.ok && typeof payload.exp === 'number') {
        if (known.size >= VERIFIED_MAX) known.clear();
        const { ok: _ok, ...grant } = check;
        known.set(token, { grant, expMs: payload.exp * 1000 });
      }
      return check;
    } catch (err) {
      if (err instanceof joseErrors.JWTExpired) return { ok: false, reason: 'token expired' };
      return { ok: false, reason: 'invalid token' };
    }
  };
  return (token, now) => {
    const hit = known.get(token);
    if (hit && now.getTime() < hit.expMs) return { ok: true, ...hit.grant };
    return verify(token, now);
  };
}
