import type { Socket } from 'node:net';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { ServiceError } from '../core/errors.js';

/** Longest path parameter the router accepts (Fastify's default); longer ones answer 414. */
export const MAX_PARAM_LENGTH = 100;

/**
 * Errors Fastify raises before a route is found (a malformed URL, a too long path parameter) skip the
 * error handler; this answers them in the service's one error shape.
 */
export function frameworkErrors(err: FastifyError, _request: FastifyRequest, reply: FastifyReply): void {
  const e =
    err.code === 'FST_ERR_MAX_PARAM_LENGTH'
      ? new ServiceError('H414', { limit: MAX_PARAM_LENGTH }, { field: 'url' })
      : new ServiceError(
          'H400_MALFORMED_REQUEST',
          { reason: err.code === 'FST_ERR_BAD_URL' ? 'the URL is not valid (bad percent-encoding)' : err.message },
          { field: 'url' },
        );
  void reply.status(e.status).send(e.toBody());
}

/**
 * Requests Node's HTTP parser refuses (broken request line, oversized headers, a client too slow) never
 * reach Fastify; the answer is written to the socket, in the service's error shape, and the socket closed.
 */
export function clientErrors(err: NodeJS.ErrnoException, socket: Socket): void {
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  const e =
    err.code === 'ERR_HTTP_REQUEST_TIMEOUT'
      ? new ServiceError('H408')
      : err.code === 'HPE_HEADER_OVERFLOW'
        ? new ServiceError('H431')
        : new ServiceError('H400_MALFORMED_REQUEST', { reason: 'the HTTP request cannot be parsed' });
  const body = JSON.stringify(e.toBody());
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${e.status} ${httpReason(e.status)}\r\nContent-Length: ${Buffer.byteLength(body)}\r\nContent-Type: application/json; charset=utf-8\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy(err);
}

function httpReason(status: number): string {
  return { 400: 'Bad Request', 408: 'Request Timeout', 431: 'Request Header Fields Too Large' }[status] ?? 'Error';
}
