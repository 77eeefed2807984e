import { createHash } from 'node:crypto';

const ASCII = /^[\x00-\x7f]*$/;

/**
 * Splits text into lower-case words of letters and digits, diacritics removed: "O'Brien-Smith, Zoë" →
 * ["o", "brien", "smith", "zoe"]. Used both for indexing and for query values, so they always agree,
 * and the only characters that reach the FTS query are letters and digits.
 */
export function words(text: string): string[] {
  // ASCII has no diacritics to remove and its letters and digits are [a-z0-9]: the usual value skips the
  // Unicode passes (an index build splits about a million values).
  const ascii = ASCII.test(text);
  const folded = ascii
    ? text.toLowerCase()
    : text
        .normalize('NFKD')
        .replace(/\p{M}+/gu, '')
        .toLowerCase();
  return folded
    .split(ascii ? /[^a-z0-9]+/ : /[^\p{L}\p{N}]+/u)
    .filter((w) => w.length > 0)
    .map((w) => w.slice(0, 64));
}

/**
 * The prefix that scopes a word to one field of one entity of one connector in the full-text index.
 * A hash (~1 µs): callers that index many documents compute it once per field (see fieldTokens).
 */
export function fieldToken(connectorId: string, entity: string, field: string): string {
  const key = `${connectorId}\u0000${entity}\u0000${field}`;
  return `f${createHash('sha1').update(key).digest('hex').slice(0, 12)}x`;
}

/** fieldToken of each of some fields of one entity of one connector. */
export function fieldTokens(connectorId: string, entity: string, fields: readonly string[]): Map<string, string> {
  return new Map(fields.map((f) => [f, fieldToken(connectorId, entity, f)]));
}
