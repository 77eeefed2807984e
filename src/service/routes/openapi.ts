import type { FastifyPluginAsync } from 'fastify';
import { buildOpenApiDocument } from '../openapi/document.js';

/** GET /openapi.json (no token): the OpenAPI 3.1 document of every endpoint, built from the registered routes. */
export const openapiRoutes: FastifyPluginAsync = async (app) => {
  let cached: Record<string, unknown> | null = null;
  app.get('/openapi.json', { config: { public: true } }, async () => {
    // Every route is registered before the first request can arrive, so the document never changes after.
    cached ??= buildOpenApiDocument(app.routeTable, app.service.types);
    return cached;
  });
};
