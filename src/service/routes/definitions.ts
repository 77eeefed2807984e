import type { FastifyPluginAsync } from 'fastify';
import { findTypeByDefinitionId } from '../core/connector-type.js';
import type { ConnectorDefinition, ConnectorType } from '../core/connector-type.js';
import { ServiceError } from '../core/errors.js';
import { connectionSpecification } from '../core/source-template.js';

/** A definition as the catalog shows it. */
function toItem(d: ConnectorDefinition) {
  return { sourceDefinitionId: d.id, name: d.name, iconUrl: d.iconUrl, supportLevel: d.supportLevel };
}

/**
 * One definition as GET /definitions/sources/:id answers it: the published SourceDefinitionResponse
 * ({id, definition: {..., spec}, example_questions}), plus the catalog item's fields at the top level as
 * before (additive, so older readers keep working).
 */
function toDetail(t: ConnectorType) {
  const d = t.definition;
  const entities = [...new Set(t.actions.map((a) => a.entity))];
  const searchable = t.contextStore?.entities ?? [];
  return {
    id: d.id,
    definition: {
      sourceDefinitionId: d.id,
      name: d.name,
      iconUrl: d.iconUrl,
      custom: false,
      supportLevel: d.supportLevel,
      spec: { connectionSpecification: connectionSpecification(d) },
    },
    example_questions: {
      direct: entities.slice(0, 3).map((e) => `List the first 10 ${e}.`),
      search: searchable.slice(0, 3).map((e) => `Which ${e} changed in the last 7 days?`),
    },
    ...toItem(d),
  };
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
    return toDetail(type);
  });
};
