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
  const iat = Math.floor(now.getTime() / 1000);
  return new SignJWT({ organization_id: claims.organizationId })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setIssuer(ISSUER)
    .setSubject(claims.clientId)
    .setIssuedAt(iat)
    .setExpirationTime(iat + ttlSeconds)
    .sign(key);
}

/** Why a token was refused; the message is safe to show (it never echoes the token). */
export type TokenCheck = { ok: true; organizationId: string } | { ok: false; reason: string };

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
  const known = new Map<string, { organizationId: string; expMs: number }>();
  const verify = async (token: string, now: Date): Promise<TokenCheck> => {
    try {
      const { payload } = await jwtVerify(token, key, {
        algorithms: ['HS256'],
        issuer: ISSUER,
        currentDate: now,
        requiredClaims: ['exp', 'organization_id'],
      });
      const org = payload['organization_id'];
      if (typeof org !== 'string' || org === '') return { ok: false, reason: 'token carries no organization' };
      if (typeof payload.exp === 'number') {
        if (known.size >= VERIFIED_MAX) known.clear();
        known.set(token, { organizationId: org, expMs: payload.exp * 1000 });
      }
      return { ok: true, organizationId: org };
    } catch (err) {
      if (err instanceof joseErrors.JWTExpired) return { ok: false, reason: 'token expired' };
      return { ok: false, reason: 'invalid token' };
    }
  };
  return (token, now) => {
    const hit = known.get(token);
    if (hit && now.getTime() < hit.expMs) return { ok: true, organizationId: hit.organizationId };
    return verify(token, now);
  };
}
