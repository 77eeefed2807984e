import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import {
  DEFAULT_RETRY,
  DEFAULT_RETRY_FOR_MS,
  DURATION_PATTERN,
  formatDuration,
  parseDurationMs,
  parseRetryAfter,
  retryDelayMs,
  retryPolicyFrom,
  runRetryPolicy,
  shouldRetry,
} from '../../src/client/index.js';
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
    // max_attempts written without max_duration is the limit: attempts only, as before time budgets.
    expect(retryPolicyFrom({ max_attempts: 2, jitter: false })).toEqual({
      ...DEFAULT_RETRY,
      maxAttempts: 2,
      jitter: false,
      retryForMs: 0,
    });
    expect(retryPolicyFrom({ max_duration: '30s' })).toEqual({ ...DEFAULT_RETRY, retryForMs: 30_000 });
  });

  it("completes a step's retry from its recipe's top-level retry, and a run's default fills max_duration", () => {
    const recipe = retryPolicyFrom({ max_duration: '1h', initial_delay_ms: 100 });
    expect(retryPolicyFrom({ jitter: false }, recipe)).toEqual({ ...recipe, jitter: false });
    expect(retryPolicyFrom({ max_attempts: 9 }, recipe).retryForMs).toBe(3_600_000);
    expect(runRetryPolicy(undefined, undefined).retryForMs).toBe(DEFAULT_RETRY_FOR_MS);
    expect(runRetryPolicy(undefined, 0).retryForMs).toBe(0);
    expect(runRetryPolicy(recipe, 0).retryForMs).toBe(3_600_000);
    expect(DEFAULT_RETRY_FOR_MS).toBe(600_000);
  });

  it('reads durations as the schema states them', () => {
    const schema = JSON.parse(readFileSync(new URL('../../schemas/recipe.schema.json', import.meta.url), 'utf8')) as {
      $defs: { retry: { properties: { max_duration: { pattern: string } } } };
    };
    expect(schema.$defs.retry.properties.max_duration.pattern).toBe(DURATION_PATTERN);
    expect(['0', '250ms', '30s', '10m', '2h', '30d'].map(parseDurationMs)).toEqual([
      0, 250, 30_000, 600_000, 7_200_000, 2_592_000_000,
    ]);
    for (const bad of ['', '10', '1h30m', '-1s', '10 min', 'soon']) expect(parseDurationMs(bad)).toBeUndefined();
    expect([600_000, 90_000, 1500, 0].map(formatDuration)).toEqual(['10m', '90s', '1500ms', '0']);
  });
});

describe('a time budget for transient failures (max_duration)', () => {
  const policy = { ...DEFAULT_RETRY, retryForMs: 60_000 };
  it('retries transient failures past maxAttempts until max_duration after the first attempt', () => {
    const past = DEFAULT_RETRY.maxAttempts + 10;
    expect(shouldRetry({ kind: 'network', sent: false }, past, policy, false, 59_999)).toBe(true);
    expect(shouldRetry({ kind: 'network', sent: false }, past, policy, false, 60_000)).toBe(false);
    expect(shouldRetry({ kind: 'status', status: 503 }, past, policy, true, 10_000)).toBe(true);
    expect(shouldRetry({ kind: 'status', status: 429 }, past, policy, false, 10_000)).toBe(true);
    // 0 (and a client without a run: undefined) counts attempts only.
    expect(shouldRetry({ kind: 'network', sent: false }, past, { ...policy, retryForMs: 0 }, false, 1)).toBe(false);
    expect(shouldRetry({ kind: 'network', sent: false }, past, DEFAULT_RETRY, false, 1)).toBe(false);
  });

  it('never repeats a write that may have arrived, nor a permanent failure, however long the budget', () => {
    expect(shouldRetry({ kind: 'network', sent: true }, 9, policy, false, 1)).toBe(false);
    expect(shouldRetry({ kind: 'status', status: 502 }, 9, policy, false, 1)).toBe(false);
    for (const s of [400, 404, 409, 422])
      expect(shouldRetry({ kind: 'status', status: s }, 9, policy, true, 1)).toBe(false);
  });

  it('keeps the delay capped on attempt 500 of a long outage', () => {
    expect(retryDelayMs(500, { ...policy, jitter: false }, () => 0)).toBe(DEFAULT_RETRY.maxDelayMs);
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
