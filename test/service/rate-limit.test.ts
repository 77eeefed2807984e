import { afterEach, describe, expect, it } from 'vitest';
import { RateLimiter } from '../../src/service/http/rate-limit.js';
import { ServiceError } from '../../src/service/core/errors.js';
import { createTestService, type TestService } from './helpers.js';

let svc: TestService | undefined;
afterEach(async () => {
  await svc?.close();
  svc = undefined;
});

describe('per-token rate limit', () => {
  it('answers 429 with Retry-After once a token spends its budget; other tokens are unaffected', async () => {
    svc = await createTestService({ rateLimit: 3 });
    // A pinned clock: no refill between requests, so exactly 3 pass.
    svc.clock.set(new Date('2030-01-01T00:00:00Z'));
    const url = '/api/v1/integrations/definitions/sources';
    const a = await svc.auth();
    const statuses: number[] = [];
    let limited;
    for (let i = 0; i < 8; i++) {
      const res = await svc.app.inject({ method: 'GET', url, headers: a });
      statuses.push(res.statusCode);
      if (res.statusCode === 429) limited = res;
    }
    expect(statuses).toEqual([200, 200, 200, 429, 429, 429, 429, 429]);
    expect(limited!.headers['retry-after']).toBe('1');
    expect(limited!.json().errors[0]).toMatchObject({ error_code: 'rate_limited' });
    const other = await svc.createOrg();
    const res = await svc.app.inject({ method: 'GET', url, headers: await other.auth() });
    expect(res.statusCode).toBe(200);
    // A second later the first token has its budget back.
    svc.clock.advance(1000);
    expect((await svc.app.inject({ method: 'GET', url, headers: a })).statusCode).toBe(200);
  });

  it('tells the client its budget on every answer: RateLimit-Limit, -Remaining, -Reset and -Policy', async () => {
    svc = await createTestService({ rateLimit: 3 });
    svc.clock.set(new Date('2030-01-01T00:00:00Z'));
    const url = '/api/v1/integrations/definitions/sources';
    const a = await svc.auth();
    const seen: string[] = [];
    for (let i = 0; i < 4; i++) {
      const res = await svc.app.inject({ method: 'GET', url, headers: a });
      const h = res.headers;
      seen.push(`${res.statusCode} ${h['ratelimit-limit']} ${h['ratelimit-remaining']} ${h['ratelimit-reset']}`);
      expect(h['ratelimit-policy']).toBe('3;w=1');
    }
    expect(seen).toEqual(['200 3 2 1', '200 3 1 1', '200 3 0 1', '429 3 0 1']);
    // The public document carries none: it is not rate limited.
    const doc = await svc.app.inject({ method: 'GET', url: '/api/v1/openapi.json' });
    expect(doc.headers['ratelimit-limit']).toBeUndefined();
  });

  it('is off by default', async () => {
    svc = await createTestService();
    const headers = await svc.auth();
    for (let i = 0; i < 30; i++) {
      const res = await svc.app.inject({ method: 'GET', url: '/api/v1/workspaces', headers });
      expect(res.statusCode).toBe(200);
    }
  });

  it('refills over time (token bucket on an injected clock)', () => {
    let t = 0;
    const limiter = new RateLimiter(2, () => t);
    limiter.take('k');
    limiter.take('k');
    let err: unknown;
    try {
      limiter.take('k');
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ServiceError);
    expect((err as ServiceError).headers['retry-after']).toBe('1');
    t = 500;
    expect(() => limiter.take('k')).not.toThrow();
    expect(() => limiter.take('k')).toThrow(ServiceError);
  });
});
