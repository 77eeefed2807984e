import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { DEFAULT_RETRY, parseRetryAfter, retryDelayMs, retryPolicyFrom, shouldRetry } from '../../src/client/index.js';
import { Redactor } from '../../src/client/index.js';

describe('one retry policy', () => {
  it('the recipe schema states the defaults the client applies', () => {
    const schema = JSON.parse(readFileSync(new URL('../../schemas/recipe.schema.json', import.meta.url), 'utf8')) as {
      $defs: { retry: { properties: Record<string, { default: unknown }> } };
    };
    const d = (name: string): unknown => schema.$defs.retry.properties[name]?.default;
    expect({
      maxAttempts: d('max_attempts'),
      initialDelayMs: d('initial_delay_ms'),
      maxDelayMs: d('max_delay_ms'),
      factor: d('factor'),
      jitter: d('jitter'),
    }).toEqual(DEFAULT_RETRY);
  });

  it("completes a step's retry field by field from the defaults", () => {
    expect(retryPolicyFrom({})).toEqual(DEFAULT_RETRY);
    expect(retryPolicyFrom({ max_attempts: 2, jitter: false })).toEqual({
      ...DEFAULT_RETRY,
      maxAttempts: 2,
      jitter: false,
    });
  });
});

describe('shouldRetry', () => {
  it('retries a write only when the request cannot have arrived', () => {
    expect(shouldRetry({ kind: 'network', sent: false }, 1, DEFAULT_RETRY, false)).toBe(true);
    expect(shouldRetry({ kind: 'network', sent: true }, 1, DEFAULT_RETRY, false)).toBe(false);
    expect(shouldRetry({ kind: 'status', status: 429 }, 1, DEFAULT_RETRY, false)).toBe(true);
    expect(shouldRetry({ kind: 'status', status: 502 }, 1, DEFAULT_RETRY, false)).toBe(false);
    expect(shouldRetry({ kind: 'status', status: 504 }, 1, DEFAULT_RETRY, true)).toBe(true);
  });

  it('never retries other 4xx, and stops at maxAttempts', () => {
    for (const s of [400, 403, 404, 409, 422])
      expect(shouldRetry({ kind: 'status', status: s }, 1, DEFAULT_RETRY, true)).toBe(false);
    expect(shouldRetry({ kind: 'status', status: 503 }, DEFAULT_RETRY.maxAttempts, DEFAULT_RETRY, true)).toBe(false);
  });
});

describe('delays', () => {
  it('grows exponentially, caps at maxDelayMs, and jitters over [0, computed]', () => {
    const p = { ...DEFAULT_RETRY, jitter: false };
    expect([1, 2, 3, 10].map((a) => retryDelayMs(a, p, () => 0))).toEqual([500, 1000, 2000, 20_000]);
    expect(retryDelayMs(3, DEFAULT_RETRY, () => 0.25)).toBe(500);
    expect(retryDelayMs(3, DEFAULT_RETRY, () => 0.25, 9000)).toBe(9000);
  });

  it('parses Retry-After seconds and dates, ignores junk', () => {
    expect(parseRetryAfter('3', 0)).toBe(3000);
    expect(parseRetryAfter('Thu, 01 Jan 1970 00:00:05 GMT', 1000)).toBe(4000);
    expect(parseRetryAfter('Thu, 01 Jan 1970 00:00:05 GMT', 9000)).toBe(0);
    expect(parseRetryAfter('soon', 0)).toBeUndefined();
    expect(parseRetryAfter(undefined, 0)).toBeUndefined();
  });
});

describe('Redactor', () => {
  it('masks values, their JSON and URL forms, inside nested values', () => {
    const r = new Redactor(['p@ss "word"', 'ab']);
    expect(r.redact('x p@ss "word" y')).toBe('x *** y');
    expect(r.redact(JSON.stringify({ v: 'p@ss "word"' }))).toBe('{"v":"***"}');
    expect(r.redact(encodeURIComponent('p@ss "word"'))).toBe('***');
    expect(r.redactValue({ a: ['p@ss "word"!'] })).toEqual({ a: ['***!'] });
    expect(r.redact('ab stays (too short to mask)')).toBe('ab stays (too short to mask)');
  });
});

describe('Redactor: derived forms (issue 12 point 7)', () => {
  const secret = 'Sup3r/Secret+Value?';
  const r = new Redactor([secret]);

  it('masks the value upper- and lower-cased', () => {
    expect(r.redact(`a ${secret.toUpperCase()} b ${secret.toLowerCase()} c`)).toBe('a *** b *** c');
  });

  it('masks it URL-encoded with either hex case', () => {
    const enc = encodeURIComponent(secret);
    expect(r.redact(`?t=${enc}&u=${enc.replace(/%[0-9A-F]{2}/g, (h) => h.toLowerCase())}`)).toBe('?t=***&u=***');
  });

  it('masks it base64-encoded, standard and URL-safe, padded or not', () => {
    const b64 = Buffer.from(secret).toString('base64');
    const url = Buffer.from(secret).toString('base64url');
    expect(r.redact(`x ${b64} y ${url} z`)).not.toMatch(/[A-Za-z0-9+/_-]{12,}/);
  });

  it('masks the part of a longer base64 text that encodes it, at every alignment (Basic auth)', () => {
    for (const user of ['u', 'us', 'use', 'user']) {
      const basic = Buffer.from(`${user}:${secret}`).toString('base64');
      const masked = r.redact(`Authorization: Basic ${basic}`);
      expect(masked, user).toContain('***');
      // What is left around the mask is at most the few characters that mix in the neighbouring bytes.
      expect(masked.replace('Authorization: Basic ', '').replace('***', '').length, user).toBeLessThanOrEqual(12);
    }
  });

  it('does not mask short base64 pieces that would match ordinary text', () => {
    const short = new Redactor(['abcd']);
    expect(short.redact('ABCD abcd YWJj')).toBe('*** *** YWJj');
  });
});

describe('Redactor.redactValue', () => {
  it('copies an object reached twice (shared, not circular) both times', () => {
    const shared = { t: 1 };
    const r = new Redactor(['secret-value']);
    expect(r.redactValue({ a: shared, b: [shared] })).toEqual({ a: { t: 1 }, b: [{ t: 1 }] });
    const loop: Record<string, unknown> = {};
    loop.self = loop;
    expect(r.redactValue(loop)).toEqual({ self: '[circular]' });
  });
});
