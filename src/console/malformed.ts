import type { Socket } from 'node:net';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { ConsoleError } from './errors.js';

/**
 * Errors Fastify raises before a route is found (a bad percent-encoding such as /api/runs/%E0%A4%A, a too
 * long path parameter) skip the error handler; this answers them in the console's own shape.
 */
export function consoleFrameworkErrors(err: FastifyError, _request: FastifyRequest, reply: FastifyReply): void {
  const e = new ConsoleError('K400', {
    message:
      err.code === 'FST_ERR_BAD_URL'
        ? 'malformed request: the URL is not valid (bad percent-encoding)'
        : 'malformed request',
  });
  void reply.status(e.status).send(e.toBody());
}

/**
 * Requests Node's HTTP parser refuses (a broken request line, oversized headers) never reach Fastify: the
 * answer is written to the socket in the console's shape, and the socket closed.
 */
export function consoleClientErrors(err: NodeJS.ErrnoException, socket: Socket): void {
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  const [status, reason] =
    err.code === 'HPE_HEADER_OVERFLOW'
      ? [431, 'Request Header Fields Too Large']
      : err.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? [408, 'Request Timeout']
        : [400, 'Bad Request'];
  const body = JSON.stringify(
    new ConsoleError('K400', { message: `malformed request: ${reason.toLowerCase()}` }).toBody(),
  );
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${status} ${reason}\r\nContent-Length: ${Buffer.byteLength(body)}\r\nContent-Type: application/json; charset=utf-8\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy(err);
}
