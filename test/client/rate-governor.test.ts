import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConnectorClient } from '../../src/client/index.js';
import { parsePolicy, RateGovernor } from '../../src/client/rate-governor.js';
import { startService, type RunningService } from '../../src/service/start.js';

function fakeTime() {
  const t = { now: 0, slept: [] as number[] };
  const sleep = async (ms: number) => {
    t.slept.push(ms);
    t.now += ms;
  };
  return { t, governor: new RateGovernor(() => t.now, sleep) };
}

describe('RateGovernor', () => {
  it('reads the policy field: <limit>;w=<seconds>, the first of several', () => {
    expect(parsePolicy('50;w=1')).toEqual({ limit: 50, windowSeconds: 1 });
    expect(parsePolicy('100;w=60, 10;w=1')).toEqual({ limit: 100, windowSeconds: 60 });
    expect(parsePolicy('10')).toEqual({ limit: 10, windowSeconds: 1 });
    expect(parsePolicy('x;w=1')).toBeUndefined();
    expect(parsePolicy('10;w=0')).toBeUndefined();
  });

  it('holds nothing back until the service says something', async () => {
    const { t, governor } = fakeTime();
    for (let i = 0; i < 100; i++) await governor.acquire('c');
    expect(t.slept).toEqual([]);
    expect(governor.describe('c').window).toBe(Infinity);
  });

  it('spaces requests at the advertised rate, 2 % slower, once a policy header is seen', async () => {
    const { t, governor } = fakeTime();
    await governor.acquire('c');
    governor.release('c', { status: 200, headers: { 'ratelimit-policy': '50;w=1' } });
    for (let i = 0; i < 5; i++) {
      await governor.acquire('c');
      governor.release('c', { status: 200, headers: {} });
    }
    expect(governor.describe('c').intervalMs).toBeCloseTo(20.4);
    // The first send after learning goes at once; each next one 20.4 ms after the one before.
    expect(t.slept.map((ms) => Math.round(ms * 10) / 10)).toEqual([20.4, 20.4, 20.4, 20.4]);
  });

  it('waits for the reset when the service says nothing remains', async () => {
    const { t, governor } = fakeTime();
    await governor.acquire('c');
    governor.release('c', { status: 200, headers: { 'ratelimit-remaining': '0', 'ratelimit-reset': '2' } });
    await governor.acquire('c');
    expect(t.slept).toEqual([2000]);
  });

  it('halves the requests in flight on a 429 and grows them by one per window of successes', async () => {
    const { governor } = fakeTime();
    for (let i = 0; i < 16; i++) await governor.acquire('c');
    governor.release('c', { status: 429, headers: {}, retryAfterMs: 0 });
    expect(governor.describe('c').window).toBe(8);
    for (let i = 0; i < 15; i++) governor.release('c', { status: 200, headers: {} });
    expect(governor.describe('c').window).toBe(9);
  });

  it('lets a waiting request go when one in flight ends, and an aborted wait leaves its place', async () => {
    const { governor } = fakeTime();
    for (let i = 0; i < 4; i++) await governor.acquire('c');
    governor.release('c', { status: 429, headers: {} }); // window 2, 3 in flight
    const ac = new AbortController();
    let second = false;
    const waitingA = governor.acquire('c', ac.signal);
    const waitingB = governor.acquire('c').then(() => (second = true));
    ac.abort(new Error('stop'));
    await expect(waitingA).rejects.toThrow('stop');
    governor.release('c', { status: 200, headers: {} });
    governor.release('c', { status: 200, headers: {} }); // 1 in flight: room for B
    await waitingB;
    expect(second).toBe(true);
  });

  it('takes a place at once only when acquire would not wait (tryAcquire), and counts it in flight', async () => {
    const { t, governor } = fakeTime();
    expect(governor.tryAcquire('c')).toBe(true);
    governor.release('c', { status: 200, headers: { 'ratelimit-policy': '50;w=1' } });
    // Spaced from now on: the first send goes at once, the next must wait its 20.4 ms, so not at once.
    expect(governor.tryAcquire('c')).toBe(true);
    expect(governor.tryAcquire('c')).toBe(false);
    await governor.acquire('c');
    expect(t.slept).toEqual([20.4]);
    governor.release('c', { status: 200, headers: {} });
    governor.release('c', { status: 200, headers: {} });
    // A full window: no place until one in flight ends.
    const full = fakeTime().governor;
    for (let i = 0; i < 4; i++) expect(full.tryAcquire('d')).toBe(true);
    full.release('d', { status: 429, headers: {} }); // window 1, 3 in flight
    expect(full.tryAcquire('d')).toBe(false);
    for (let i = 0; i < 3; i++) full.release('d', { status: 200, headers: {} });
    expect(full.tryAcquire('d')).toBe(true);
  });
});

describe('a client at a service rate limit', () => {
  let svc: RunningService;
  let connectorId: string;

  beforeAll(async () => {
    svc = await startService({ port: 0, seed: 'demo', seedSize: 20, rateLimit: 100 });
    const probe = new ConnectorClient({ baseUrl: svc.url, ...svc.credentials, workspace: 'default' });
    connectorId = await probe.resolveConnector({ workspace: 'default', definition: 'CRM' });
    await probe.close();
  }, 60_000);
  afterAll(async () => svc?.close());

  /** 300 reads by 32 concurrent workers through one client; the 429s the service answered. */
  async function fanOut(adaptiveRate: boolean): Promise<{ requests: number; tooMany: number }> {
    const client = new ConnectorClient({ baseUrl: svc.url, ...svc.credentials, workspace: 'default', adaptiveRate });
    let tooMany = 0;
    const observer = { response: (r: { status: number }) => void (r.status === 429 && tooMany++) };
    let next = 0;
    const worker = async () => {
      while (next < 300) {
        next++;
        await client.execute(connectorId, { entity: 'contacts', action: 'list', params: { limit: 1 } }, { observer });
      }
    };
    await Promise.all(Array.from({ length: 32 }, worker));
    const requests = client.stats.requests;
    await client.close();
    return { requests, tooMany };
  }

  it('keeps under the limit: at most 2 % of requests answered 429, every call succeeds', async () => {
    const adaptive = await fanOut(true);
    expect(adaptive.requests).toBeGreaterThanOrEqual(300);
    expect(adaptive.tooMany).toBeLessThanOrEqual(Math.floor(adaptive.requests * 0.02));
  }, 60_000);
});
