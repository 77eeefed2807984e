import type { Answer, OutgoingRequest } from './interceptor.js';

/** Seconds a cached token must still be valid for, on the case's clock. */
const MARGIN_S = 60;

/**
 * Token answers of the embedded service, reused across the cases of one service: each exchange costs the
 * service a scrypt check of the client secret (~30 ms), more than most cases take. A token is reused only
 * while the case's clock is inside its lifetime (cases pin different times), so the service never sees one
 * it would refuse, and a run's request counts do not depend on which case ran before.
 */
export class TokenCache {
  private readonly answers = new Map<string, { answer: Answer; iat: number; exp: number }>();

  /** `data` names the database lineage (the template a case's data comes from): each has its own organization. */
  get(req: OutgoingRequest, data: string, nowMs: number): Answer | undefined {
    const hit = this.answers.get(`${data}\n${req.body ?? ''}`);
    if (!hit) return undefined;
    const now = nowMs / 1000;
    return hit.iat <= now && now + MARGIN_S < hit.exp ? hit.answer : undefined;
  }

  put(req: OutgoingRequest, data: string, answer: Answer): void {
    if (answer.status !== 200) return;
    const token = (JSON.parse(answer.body.toString('utf8')) as { access_token?: unknown }).access_token;
    const claims = typeof token === 'string' ? jwtClaims(token) : undefined;
    if (claims) this.answers.set(`${data}\n${req.body ?? ''}`, { answer, ...claims });
  }

  clear(): void {
    this.answers.clear();
  }
}

/** iat and exp of a JWT, read without verifying it (the service that issued it verifies it). */
function jwtClaims(token: string): { iat: number; exp: number } | undefined {
  try {
    const payload = JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString('utf8')) as {
      iat?: unknown;
      exp?: unknown;
    };
    return typeof payload.iat === 'number' && typeof payload.exp === 'number'
      ? { iat: payload.iat, exp: payload.exp }
      : undefined;
  } catch {
    return undefined;
  }
}
