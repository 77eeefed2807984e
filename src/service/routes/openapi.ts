import { createHash } from 'node:crypto';
import type { FastifyPluginAsync } from 'fastify';
import { buildOpenApiDocument } from '../openapi/document.js';

/** The document as sent, and its validator. */
interface Serialised {
  readonly body: string;
  readonly etag: string;
}

/**
 * GET /openapi.json (no token): the OpenAPI 3.1 document of every endpoint, built from the registered routes,
 * with an ETag. A client that keeps the document (recipe caches the catalog it derives, src/catalog/cache.ts)
 * sends it back as If-None-Match and is answered 304 with no body while the document is the same.
 */
export const openapiRoutes: FastifyPluginAsync = async (app) => {
  let cached: Serialised | null = null;
  app.get('/openapi.json', { config: { public: true } }, async (req, reply) => {
    // Every route is registered before the first request can arrive, so the document never changes after:
    // it is serialised once (392 KB; every `recipe run` against the service checks the recipe against it).
    cached ??= serialise(JSON.stringify(buildOpenApiDocument(app.routeTable, app.service.types)));
    reply.header('etag', cached.etag).header('cache-control', 'no-cache');
    if (matches(req.headers['if-none-match'], cached.etag)) return reply.code(304).send();
    return reply.type('application/json; charset=utf-8').send(cached.body);
  });
};

function serialise(body: string): Serialised {
  return { body, etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 32)}"` };
}

/**
 * Whether an If-None-Match header names the ETag: `*`, or one of a comma-separated list, compared weakly
 * (a `W/` prefix is ignored), as RFC 9110 §13.1.2 says for this header.
 */
function matches(header: string | undefined, etag: string): boolean {
  if (header === undefined) return false;
  return header.split(',').some((tag) => {
    const t = tag.trim();
    return t === '*' || t.replace(/^W\//, '') === etag;
  });
}
