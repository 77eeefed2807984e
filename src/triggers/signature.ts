import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * The signature scheme of trigger deliveries and result callbacks (Stripe's): one header
 * `X-Recipe-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256(secret, "<t>.<raw body>")>`. Signing the timestamp
 * with the body lets the receiver refuse a replay outside its window without keeping every body it saw.
 */
export const SIGNATURE_HEADER = 'x-recipe-signature';

/** The header naming one delivery: a redelivery carries the same id (absent: the SHA-256 of the signed body). */
export const DELIVERY_HEADER = 'x-delivery-id';

/** The default replay window, in seconds, either side of the receiver's clock (Stripe's and Slack's five minutes). */
export const DEFAULT_TOLERANCE_S = 300;

/** The hex HMAC-SHA256 of "<timestamp>.<body>". */
export function signatureOf(secret: string, timestamp: number, body: string | Buffer): string {
  return createHmac('sha256', secret).update(`${timestamp}.`).update(body).digest('hex');
}

/** The header value that signs `body` at `timestamp` (unix seconds). */
export function signatureHeader(secret: string, timestamp: number, body: string | Buffer): string {
  return `t=${timestamp},v1=${signatureOf(secret, timestamp, body)}`;
}

/** Why a signature was refused: G011 missing/malformed, G012 outside the window, G010 no match. */
export type SignatureCheck =
  | { readonly ok: true }
  | { readonly ok: false; readonly code: 'G010' | 'G011' }
  | { readonly ok: false; readonly code: 'G012'; readonly age: number };

/**
 * Checks a signature header against the raw body. The timestamp is checked first (a stale replay of a genuine
 * delivery is refused as stale); several v1= values are accepted so a sender can sign with an old and a new
 * secret while rotating. Compared in constant time.
 */
export function verifySignature(
  header: string | undefined,
  secret: string,
  body: Buffer,
  nowS: number,
  toleranceS: number = DEFAULT_TOLERANCE_S,
): SignatureCheck {
  if (header === undefined || header.length > 2000) return { ok: false, code: 'G011' };
  let timestamp: number | undefined;
  const given: string[] = [];
  for (const part of header.split(',')) {
    const eq = part.indexOf('=');
    const key = part.slice(0, eq).trim();
    const value = part.slice(eq + 1).trim();
    if (key === 't' && /^\d{1,12}$/.test(value)) timestamp = Number(value);
    else if (key === 'v1' && /^[0-9a-f]{64}$/i.test(value)) given.push(value.toLowerCase());
  }
  if (timestamp === undefined || given.length === 0) return { ok: false, code: 'G011' };
  const age = nowS - timestamp;
  if (Math.abs(age) > toleranceS) return { ok: false, code: 'G012', age };
  const expected = Buffer.from(signatureOf(secret, timestamp, body), 'utf8');
  const match = given.some((g) => timingSafeEqual(Buffer.from(g, 'utf8'), expected));
  return match ? { ok: true } : { ok: false, code: 'G010' };
}
