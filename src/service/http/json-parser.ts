import type { FastifyInstance } from 'fastify';

/**
 * JSON is the only request body type. The default text/plain parser goes (other types get 415), and an
 * empty application/json body counts as no body, as many clients send the header on every request
 * (DELETE, GET); routes that need a body then say so through their schema. Non-empty bodies go through
 * Fastify's own parser, which refuses __proto__ and constructor.prototype keys.
 */
export function installJsonParser(app: FastifyInstance): void {
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('text/plain');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = typeof body === 'string' ? body : body.toString('utf8');
    if (text.trim() === '') {
      done(null, undefined);
      return;
    }
    // The default parser answers through `done`; its return value carries nothing.
    void parseJson(request, text, done);
  });
}
