// A connector service look-alike for the fleet figure, in its own process: the token endpoint, and execute
// answering each request after DELAY_MS (a slow API: the time goes waiting, not computing). Prints its URL.
import { createServer } from 'node:http';

const DELAY_MS = Number(process.argv[2] ?? 20);

const server = createServer((req, res) => {
  const chunks = /** @type {Buffer[]} */ ([]);
  req.on('data', (c) => chunks.push(c));
  req.on('end', () => {
    /** @param {number} status @param {unknown} body */
    const answer = (status, body) => {
      const text = JSON.stringify(body);
      res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
      res.end(text);
    };
    if (req.url === '/api/v1/account/applications/token')
      return answer(200, { access_token: 'tok-bench', token_type: 'bearer', expires_in: 3600 });
    if (req.method === 'POST' && req.url?.endsWith('/execute')) {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}');
      setTimeout(
        () =>
          answer(200, {
            status: 'success',
            result: { n: body.params?.n ?? null },
            connector_metadata: {},
            execution_metadata: { execution_time_ms: DELAY_MS },
          }),
        DELAY_MS,
      );
      return;
    }
    answer(404, { message: 'not here' });
  });
});
server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  process.stdout.write(`http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}\n`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
