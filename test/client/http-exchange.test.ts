/**
 * One HTTP exchange (src/client/http.ts) against a real local server: the answer whole, a time limit that
 * holds for a request still waiting for a connection (it is answered at once and never sent), and the
 * caller's signal stopping an exchange under way.
 */
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { HttpTransport, requestWritten, TransportError } from '../../src/client/http.js';

let server: Server | undefined;
let transport: HttpTransport | undefined;
afterEach(async () => {
  await transport?.close();
  server?.closeAllConnections();
  server?.close();
  server = undefined;
  transport = undefined;
});

/** A server on 127.0.0.1 that hands every request to `handle`; resolves to its base URL. */
async function serve(handle: (req: IncomingMessage, res: ServerResponse) => void): Promise<string> {
  server = createServer(handle);
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

const get = (base: string, path: string, timeoutMs = 5000, signal?: AbortSignal) =>
  transport!.send({
    method: 'GET',
    url: new URL(path, base),
    headers: {},
    timeoutMs,
    ...(signal ? { signal } : {}),
  });

describe('HttpTransport.send', () => {
  it('answers the status, lower-case headers and the whole body, sent in many chunks', async () => {
    const base = await serve((_req, res) => {
      res.writeHead(201, { 'X-Thing': 'a', 'Content-Type': 'text/plain' });
      for (let i = 0; i < 50; i++) res.write(`${i},`.repeat(1000));
      res.end('end');
    });
    transport = new HttpTransport();
    const res = await get(base, '/x');
    expect(res.status).toBe(201);
    expect(res.headers['x-thing']).toBe('a');
    let expected = '';
    for (let i = 0; i < 50; i++) expected += `${i},`.repeat(1000);
    expect(res.body.toString()).toBe(`${expected}end`);
  });

  it('times out a request still waiting for a connection at once, and never sends it', async () => {
    const seen: string[] = [];
    const held: ServerResponse[] = [];
    const base = await serve((req, res) => {
      seen.push(req.url!);
      held.push(res); // every connection stays busy until released
    });
    transport = new HttpTransport();
    // The transport keeps 16 connections per origin: 16 requests take them all.
    const busy = Array.from({ length: 16 }, (_, i) => get(base, `/busy/${i}`));
    while (seen.length < 16) await new Promise((r) => setTimeout(r, 10));
    // (Were it answered only once a connection came free, this would wait for ever: none is freed before.)
    const queued = await get(base, '/queued', 200).catch((e: unknown) => e);
    expect(queued).toBeInstanceOf(TransportError);
    expect((queued as TransportError).kind).toBe('timeout');
    for (const res of held) res.end('ok');
    expect((await Promise.all(busy)).map((r) => r.status)).toEqual(Array(16).fill(200));
    // The freed connections do not carry the stopped request.
    await new Promise((r) => setTimeout(r, 200));
    expect(seen).not.toContain('/queued');
  });

  it("stops an exchange under way when the caller's signal aborts", async () => {
    const base = await serve((_req, res) => {
      res.writeHead(200);
      res.write('partial'); // and never ends
    });
    transport = new HttpTransport();
    const abort = new AbortController();
    const pending = get(base, '/slow', 5000, abort.signal).catch((e: unknown) => e);
    await new Promise((r) => setTimeout(r, 100));
    abort.abort();
    const err = await pending;
    expect(err).toBeInstanceOf(TransportError);
    expect((err as TransportError).kind).toBe('aborted');
  });

  it('has written a request on a reused connection once requestWritten() resolves', async () => {
    const base = await serve((_req, res) => res.end('ok'));
    transport = new HttpTransport();
    await get(base, '/first'); // the connection is open and idle: undici writes the next one from an immediate
    const written: string[] = [];
    const onSend = (): void => void written.push('request');
    subscribe('undici:client:sendHeaders', onSend);
    try {
      // Sent from a few awaits deep, as a step's call is, then waited for as a streaming paginate does.
      const answer = (async () => {
        await Promise.resolve();
        await Promise.resolve();
        return get(base, '/second');
      })();
      await requestWritten();
      written.push('caller goes on');
      expect((await answer).status).toBe(200);
      // One setImmediate (what paginate awaited before) would have let the caller go on first.
      expect(written).toEqual(['request', 'caller goes on']);
    } finally {
      unsubscribe('undici:client:sendHeaders', onSend);
    }
  });
});
