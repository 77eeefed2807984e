import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A request as the fault server saw it. */
export interface Seen {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  body: unknown;
}

/** What a handler may do: answer, or break the connection. */
export type Handler = (req: Seen, res: ServerResponse) => unknown;

/**
 * A tiny connector-API look-alike on 127.0.0.1 for client tests: a token endpoint that hands out
 * tok-1, tok-2, ... and a programmable handler for everything else. Records every request.
 */
export interface FaultServer {
  url: string;
  seen: Seen[];
  /** Tokens handed out so far. */
  tokensIssued: number;
  /** Lifetime the token endpoint announces. */
  expiresIn: number;
  /** Tokens the server refuses with 401. */
  revoked: Set<string>;
  handle: Handler;
  close(): Promise<void>;
}

export async function startFaultServer(
  handle: Handler = (_req, res) => json(res, 404, { message: 'no handler' }),
): Promise<FaultServer> {
  const state: FaultServer = {
    url: '',
    seen: [],
    tokensIssued: 0,
    expiresIn: 900,
    revoked: new Set(),
    handle,
    close: async () => undefined,
  };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      let body: unknown = text;
      try {
        body = text ? JSON.parse(text) : undefined;
      } catch {
        /* keep the text */
      }
      const seen: Seen = { method: req.method ?? '', path: req.url ?? '', headers: req.headers, body };
      state.seen.push(seen);
      if (seen.path === '/api/v1/account/applications/token') {
        const b = body as { client_id?: string; client_secret?: string };
        if (b?.client_id !== 'id-1' || b?.client_secret !== 'shh-secret-1')
          return json(res, 401, { message: 'bad credentials' });
        state.tokensIssued++;
        return json(res, 200, {
          access_token: `tok-${state.tokensIssued}`,
          token_type: 'bearer',
          expires_in: state.expiresIn,
        });
      }
      const auth = req.headers.authorization ?? '';
      const token = auth.replace(/^Bearer /, '');
      if (!token.startsWith('tok-') || state.revoked.has(token)) return json(res, 401, { message: 'invalid token' });
      void Promise.resolve()
        .then(() => state.handle(seen, res))
        .catch((err: unknown) => json(res, 500, { message: String(err) }));
    });
  });
  Object.assign(state, await listenLocal(server));
  return state;
}

/** Starts `server` on a free port of 127.0.0.1: its URL, and a close that drops open connections too. */
export async function listenLocal(server: Server): Promise<{ url: string; close: () => Promise<void> }> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Answers JSON. */
export function json(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), ...headers });
  res.end(text);
}

/** An execute envelope around a result. */
export function envelope(result: unknown, connectorMetadata: Record<string, unknown> = {}): unknown {
  return {
    status: 'success',
    result,
    connector_metadata: connectorMetadata,
    execution_metadata: { connector_instance_id: 'source_id:c1', execution_time_ms: 1 },
  };
}

/** Requests to the execute endpoint only. */
export function executes(server: FaultServer): Seen[] {
  return server.seen.filter((s) => s.path.endsWith('/execute'));
}
