import type { FastifyError, FastifyInstance } from 'fastify';
import { ServiceError } from '../core/errors.js';
import { ajvErrorsToItems, type AjvLikeError } from '../core/validation-items.js';

/** Field prefix per part of the request Fastify validated; body fields are named as they appear in the body. */
const CONTEXT_PREFIX: Record<string, string> = { body: '', querystring: 'query', params: 'path', headers: 'header' };

/** Maps anything thrown in a request to a ServiceError, hiding what the client must not see. */
export function toServiceError(err: unknown, bodyLimit: number): ServiceError | null {
  if (err instanceof ServiceError) return err;
  const fe = err as Partial<FastifyError> & { validation?: AjvLikeError[]; validationContext?: string };
  if (Array.isArray(fe.validation)) {
    const items = ajvErrorsToItems(fe.validation, CONTEXT_PREFIX[fe.validationContext ?? 'body'] ?? '');
    return new ServiceError('H400_INVALID_REQUEST', { problems: items.map((i) => i.message).join('; ') }, { items });
  }
  switch (fe.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new ServiceError('H413', { limit: bodyLimit });
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new ServiceError('H415', { message: 'only application/json request bodies are accepted' });
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return new ServiceError('H400_EMPTY_BODY', {}, { field: 'body' });
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return new ServiceError('H400_INVALID_JSON', {}, { field: 'body' });
  }
  // Other client errors Fastify raised itself (bad content-length, invalid JSON in older versions, ...).
  if (typeof fe.statusCode === 'number' && fe.statusCode >= 400 && fe.statusCode < 500 && fe.code?.startsWith('FST_')) {
    if (fe.statusCode === 400 && err instanceof SyntaxError) {
      return new ServiceError('H400_INVALID_JSON', {}, { field: 'body' });
    }
    return new ServiceError('H400_MALFORMED_REQUEST', { reason: fe.message ?? fe.code });
  }
  return null;
}

/** Installs the one error handler and the 404 handler; both answer {message, errors}. */
export function installErrorHandling(app: FastifyInstance, bodyLimit: number): void {
  app.setErrorHandler((err, request, reply) => {
    let serviceError = toServiceError(err, bodyLimit);
    if (!serviceError) {
      // Unknown: the body says only "internal error"; the server log gets the error (auth header and secrets redacted by the logger).
      request.log.error({ err }, 'unhandled error');
      serviceError = new ServiceError('H500');
    }
    void reply.status(serviceError.status).headers(serviceError.headers).send(serviceError.toBody());
  });
  app.setNotFoundHandler((request, reply) => {
    const e = new ServiceError('H404', { message: `no route ${request.method} ${request.url.split('?')[0]}` });
    void reply.status(404).send(e.toBody());
  });
}
