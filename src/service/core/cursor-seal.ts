import { createHmac, timingSafeEqual } from 'node:crypto';

/** Length of the tag a sealed cursor ends with: 128 bits of HMAC-SHA256, in base64url. */
const TAG_LENGTH = 22;

/**
 * Opaque paging cursors the service issues and alone can read back: a cursor is its payload in base64url
 * followed by an HMAC tag, so a cursor the service did not issue (edited, forged, from another database)
 * opens to null and the route answers its documented 400 instead of paging from an arbitrary position.
 */
export interface CursorSeal {
  /** The cursor for a payload (base64url characters only, safe in a URL as is). */
  seal(payload: string): string;
  /** The payload of a cursor this service sealed, or null for anything else. */
  open(cursor: string): string | null;
}

/** A seal keyed from the service's signing key (kept in its database, so cursors outlive a restart). */
export function createCursorSeal(signingKey: Uint8Array): CursorSeal {
  // A key of its own, derived from the token key: a cursor tag is never also a valid token signature.
  const key = createHmac('sha256', signingKey).update('recipe paging cursors v1').digest();
  const tagOf = (body: string) => createHmac('sha256', key).update(body).digest('base64url').slice(0, TAG_LENGTH);
  return {
    seal(payload) {
      const body = Buffer.from(payload, 'utf8').toString('base64url');
      return body + tagOf(body);
    },
    open(cursor) {
      if (cursor.length <= TAG_LENGTH || !/^[A-Za-z0-9_-]+$/.test(cursor)) return null;
      const body = cursor.slice(0, -TAG_LENGTH);
      const tag = Buffer.from(cursor.slice(-TAG_LENGTH));
      if (!timingSafeEqual(tag, Buffer.from(tagOf(body)))) return null;
      return Buffer.from(body, 'base64url').toString('utf8');
    },
  };
}
