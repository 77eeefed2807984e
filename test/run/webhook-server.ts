import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A request as the webhook server saw it. */
export interface Received {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

/**
 * A plain HTTP server on 127.0.0.1 standing in for a webhook or an internal service in http step tests:
 * records every request; `answer` decides the reply (default 200 JSON {ok: true}).
 */
export interface WebhookServer {
  url: string;
  port: number;
  received: Received[];
  answer: (req: Received, res: ServerResponse) => void;
  close(): Promise<void>;
}

export async function startWebhookServer(): Promise<WebhookServer> {
  const state: WebhookServer = {
    url: '',
    port: 0,
    received: [],
    answer: (_req, res) => reply(res, 200, { ok: true }),
    close: async () => undefined,
  };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const seen = {
        method: req.method ?? '',
        path: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      };
      state.received.push(seen);
      state.answer(seen, res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  state.port = (server.address() as AddressInfo).port;
  state.url = `http://127.0.0.1:${state.port}`;
  state.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return state;
}

/** Answers JSON, or text when `body` is a string. */
export function reply(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  const type = typeof body === 'string' ? 'text/plain; charset=utf-8' : 'application/json';
  res.writeHead(status, { 'content-type': type, 'content-length': Buffer.byteLength(text), ...headers });
  res.end(text);
}
