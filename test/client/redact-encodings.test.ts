import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Redactor } from '../../src/client/index.js';

// Masking by value in every encoding the engine produces or a target may echo (issue 25): a secret from a
// hostile alphabet, carried each way, never survives redact(). 1,000 generated secrets, a fixed seed.

/** Characters that encode differently from one encoder to the next, and some that are not ASCII. */
const HOSTILE = [...'abcXYZ019 ~!\'()&=+%/?#:@"\\\n\t;,$[]{}<>|^`é日😀'];

/** Each form a value takes on its way out (the text around it is added by the test). */
const ENCODINGS: Record<string, (s: string) => string> = {
  raw: (s) => s,
  upper: (s) => s.toUpperCase(),
  lower: (s) => s.toLowerCase(),
  json: (s) => JSON.stringify(s).slice(1, -1),
  jsonAscii: (s) =>
    JSON.stringify(s)
      .slice(1, -1)
      .replace(/[^\x20-\x7e]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`),
  uriComponent: (s) => encodeURIComponent(s),
  uriComponentLower: (s) => encodeURIComponent(s).replace(/%[0-9A-F]{2}/g, (h) => h.toLowerCase()),
  searchParams: (s) => new URLSearchParams({ token: s }).toString().slice('token='.length),
  everyByte: (s) =>
    [...Buffer.from(s, 'utf8')].map((b) => `%${b.toString(16).toUpperCase().padStart(2, '0')}`).join(''),
  whatwgQuery: (s) => new URL(`https://h.example/p?${s}`).search.slice(1),
  base64: (s) => Buffer.from(s, 'utf8').toString('base64'),
  base64url: (s) => Buffer.from(s, 'utf8').toString('base64url'),
};

/** The Basic header of user:secret: the secret must not decode out of what is left. */
const basic = (s: string): string => `Basic ${Buffer.from(`user-1:${s}`, 'utf8').toString('base64')}`;

const secrets = fc
  .array(fc.constantFrom(...HOSTILE), { minLength: 3, maxLength: 24 })
  .map((chars) => chars.join(''))
  // The mask is ***: a secret of asterisks would be indistinguishable from its own mask.
  .filter((s) => !s.includes('*') && s.trim().length >= 3);

describe('Redactor: a secret in any encoding', () => {
  it('masks every carrier of 1,000 generated secrets', () => {
    fc.assert(
      fc.property(secrets, (secret) => {
        const r = new Redactor([secret]);
        for (const [name, encode] of Object.entries(ENCODINGS)) {
          let encoded: string;
          try {
            encoded = encode(secret);
          } catch {
            continue; // the WHATWG parser refuses some values: then no URL carries them that way
          }
          // The URL parser drops tabs and newlines and trims the ends: what it keeps is not the secret any more.
          if (name === 'whatwgQuery' && /[\t\n#]|^\s|\s$/.test(secret)) continue;
          // base64 of fewer than 5 bytes is under 6 characters: left alone on purpose (it matches text by chance).
          if (name.startsWith('base64') && Buffer.byteLength(secret) < 5) continue;
          const text = `{"to": "x", "got": "${encoded}"} and /p?q=${encoded}&r=1`;
          const masked = r.redact(text);
          expect(masked.includes(encoded), `${name}: ${JSON.stringify(masked)}`).toBe(false);
          expect(masked.includes(secret), `${name} leaves the raw secret`).toBe(false);
        }
        // Inside longer base64 only the 3-byte-aligned middle is known: at 8 bytes or more it is 6+ characters.
        if (Buffer.byteLength(secret) < 8) return;
        const header = r.redact(basic(secret));
        const left = Buffer.from(header.slice('Basic '.length).replace(/\*+/g, ''), 'base64').toString('utf8');
        expect(left.includes(secret), 'Basic header').toBe(false);
      }),
      { numRuns: 1000, seed: 25 },
    );
  });

  it("masks the query URLSearchParams writes for a secret with ~ ! ' ( ) and spaces (the finding)", () => {
    const secret = "s3cr~t! it's (x)";
    const r = new Redactor([secret]);
    const url = `https://hooks.example/x?${new URLSearchParams({ token: secret }).toString()}`;
    expect(url).toContain('s3cr%7Et%21+it%27s+%28x%29');
    expect(r.redact(url)).toBe('https://hooks.example/x?token=***');
  });
});
