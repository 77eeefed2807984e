import type { FastifyPluginAsync } from 'fastify';
import { buildOpenApiDocument } from '../openapi/document.js';

/** GET /openapi.json (no token): the OpenAPI 3.1 document of every endpoint, built from the registered routes. */
export const openapiRoutes: FastifyPluginAsync = async (app) => {
  let cached: string | null = null;
  app.get('/openapi.json', { config: { public: true } }, async (_req, reply) => {
    // Every route is registered before the first request can arrive, so the document never changes after:
    // it is serialised once (392 KB; every `recipe run` against the service reads it to check the recipe).
    cached ??= JSON.stringify(buildOpenApiDocument(app.routeTable, app.service.types));
    return reply.type('application/json; charset=utf-8').send(cached);
  });
};
