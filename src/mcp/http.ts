import { randomUUID, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';

/** A listening MCP endpoint. */
export interface RunningMcpHttp {
  /** http://host:port/mcp */
  readonly url: string;
  close(): Promise<void>;
}

/** The shortest bearer token accepted. */
export const MIN_MCP_TOKEN_LENGTH = 16;

/**
 * Streamable HTTP at /mcp, one MCP server per session (the session remembers the client's name, which the
 * journal records as the caller). Every request must carry `Authorization: Bearer <token>`: an MCP endpoint
 * starts runs, so even on loopback another local user or a web page must not reach it.
 */
export async function startMcpHttp(o: {
  readonly host: string;
  readonly port: number;
  readonly token: string;
  readonly newServer: () => Server;
}): Promise<RunningMcpHttp> {
  const expected = Buffer.from(`Bearer ${o.token}`, 'utf8');
  const sessions = new Map<string, StreamableHTTPServerTransport>();
  const http = createServer((req, res) => {
    void handle(req, res).catch(() => {
      if (!res.headersSent) answer(res, 500, 'internal error');
    });
  });
  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = (req.url ?? '/').split('?')[0];
    if (path !== '/mcp') return answer(res, 404, 'the MCP endpoint is /mcp');
    const given = Buffer.from(req.headers.authorization ?? '', 'utf8');
    if (given.length !== expected.length || !timingSafeEqual(given, expected))
      return answer(res, 401, 'send Authorization: Bearer <token> (the token recipe mcp was started with)');
    const sessionId = req.headers['mcp-session-id'];
    const known = typeof sessionId === 'string' ? sessions.get(sessionId) : undefined;
    if (known) return known.handleRequest(req, res);
    if (req.method !== 'POST' || sessionId !== undefined) return answer(res, 404, 'unknown or missing MCP session');
    const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => void sessions.set(id, transport),
    });
    transport.onclose = () => {
      if (transport.sessionId !== undefined) sessions.delete(transport.sessionId);
    };
    await o.newServer().connect(transport);
    await transport.handleRequest(req, res);
  }
  await new Promise<void>((resolve, reject) => {
    http.once('error', reject);
    http.listen(o.port, o.host, () => resolve());
  });
  const addr = http.address();
  if (addr === null || typeof addr === 'string') throw new Error('not listening on a TCP port');
  const shown = addr.family === 'IPv6' ? `[${addr.address}]` : addr.address;
  return {
    url: `http://${shown}:${addr.port}/mcp`,
    async close() {
      await Promise.allSettled([...sessions.values()].map((t) => t.close()));
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}

function answer(res: ServerResponse, status: number, message: string): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message }, id: null }));
}
