import { createServer, request, type Server } from 'node:http';

/** An HTTP proxy in front of the embedded service that counts every execute request by entity.action. */
export interface CountingProxy {
  readonly url: string;
  readonly executes: Map<string, number>;
  close(): Promise<void>;
}

export async function startCountingProxy(target: string): Promise<CountingProxy> {
  const executes = new Map<string, number>();
  const upstream = new URL(target);
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      if (req.url?.includes('/execute')) {
        try {
          const b = JSON.parse(body.toString('utf8')) as { entity?: string; action?: string };
          const k = `${b.entity}.${b.action}`;
          executes.set(k, (executes.get(k) ?? 0) + 1);
        } catch {
          executes.set('unparsed', (executes.get('unparsed') ?? 0) + 1);
        }
      }
      const out = request(
        { host: upstream.hostname, port: upstream.port, path: req.url, method: req.method, headers: req.headers },
        (up) => {
          res.writeHead(up.statusCode ?? 502, up.headers);
          up.pipe(res);
        },
      );
      out.on('error', () => res.writeHead(502).end());
      out.end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    executes,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
