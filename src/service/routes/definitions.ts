import type { FastifyPluginAsync } from 'fastify';
import { findTypeByDefinitionId } from '../core/connector-type.js';
import type { ConnectorDefinition } from '../core/connector-type.js';
import { ServiceError } from '../core/errors.js';

/** A definition as the catalog shows it. */
function toItem(d: ConnectorDefinition) {
  return { sourceDefinitionId: d.id, name: d.name, iconUrl: d.iconUrl, supportLevel: d.supportLevel };
}

/** GET /integrations/definitions/sources[?name=] and GET /integrations/definitions/sources/:id. */
export const definitionRoutes: FastifyPluginAsync = async (app) => {
  app.get<{ Querystring: { name?: string } }>(
    '/integrations/definitions/sources',
    {
      schema: {
        querystring: {
          type: 'object',
          properties: { name: { type: 'string', maxLength: 200 } },
          additionalProperties: false,
        },
      },
    },
    async (request) => {
      const needle = request.query.name?.toLowerCase();
      const defs = app.service.types
        .map((t) => t.definition)
        .filter((d) => needle === undefined || d.name.toLowerCase().includes(needle));
      return { definitions: defs.map(toItem) };
    },
  );
  app.get<{ Params: { id: string } }>('/integrations/definitions/sources/:id', async (request) => {
    const type = findTypeByDefinitionId(request.params.id, app.service.types);
    if (!type)
      throw new ServiceError(
        'H404',
        { message: `no connector definition with id ${request.params.id}` },
        { field: 'path.id' },
      );
    return toItem(type.definition);
  });
};
