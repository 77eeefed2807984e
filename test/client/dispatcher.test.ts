import { Agent, type Dispatcher } from 'undici';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ConnectorClient } from '../../src/client/index.js';
import { envelope, json, startFaultServer, type FaultServer } from './fault-server.js';

let server: FaultServer;
let agent: Agent;

beforeEach(async () => {
  server = await startFaultServer();
  agent = new Agent();
});
afterEach(async () => {
  await agent.close();
  await server.close();
});

describe('the dispatcher option', () => {
  it('sends every exchange through the given dispatcher, which can answer or forward', async () => {
    server.handle = (_req, res) => json(res, 200, envelope({ from: 'server' }));
    const seen: string[] = [];
    // An interceptor that answers deals.list itself and forwards everything else to the real server.
    const dispatcher = agent.compose((dispatch) => (opts: Dispatcher.DispatchOptions, handler) => {
      seen.push(`${opts.method} ${opts.path}`);
      const body = typeof opts.body === 'string' ? (JSON.parse(opts.body) as { entity?: string }) : {};
      if (body.entity !== 'deals') return dispatch(opts, handler);
      const controller = { abort() {}, pause() {}, resume() {}, aborted: false, paused: false, rawHeaders: [] };
      handler.onRequestStart?.(controller as never, {});
      handler.onResponseStart?.(controller as never, 200, { 'content-type': 'application/json' }, 'OK');
      handler.onResponseData?.(
        controller as never,
        Buffer.from(JSON.stringify({ status: 'success', result: ['mocked'] })),
      );
      handler.onResponseEnd?.(controller as never, {});
      return true;
    });
    const client = new ConnectorClient({
      baseUrl: server.url,
      clientId: 'id-1',
      clientSecret: 'shh-secret-1',
      workspace: 'default',
      dispatcher,
    });
    const mocked = await client.execute('c1', { entity: 'deals', action: 'list' });
    const real = await client.execute('c1', { entity: 'contacts', action: 'list' });
    await client.close();
    expect(mocked.result).toEqual(['mocked']);
    expect(real.result).toEqual({ from: 'server' });
    expect(seen.filter((s) => s.endsWith('/execute'))).toHaveLength(2);
    expect(seen.some((s) => s.includes('/account/applications/token'))).toBe(true);
    // close() leaves a dispatcher it was given open.
    expect(agent.closed).toBe(false);
  });
});
