import type { FastifyPluginAsync } from 'fastify';
import { findTypeByDefinitionId } from '../core/connector-type.js';
import { ServiceError } from '../core/errors.js';
import { inspectConnector } from '../inspect/connector-report.js';
import { findConnector } from '../store/connectors.js';

/** GET /integrations/connectors/:id/inspect: identity, context store readiness and the action catalogue. */
export const inspectRoutes: FastifyPluginAsync = async (app) => {
  app.get<{ Params: { id: string } }>(
    '/integrations/connectors/:id/inspect',
    {
      schema: {
        params: {
          type: 'object',
          properties: { id: { type: 'string', minLength: 1, maxLength: 100 } },
          required: ['id'],
        },
      },
    },
    async (request) => {
      const row = await findConnector(app.service.store.db, request.organizationId, request.params.id);
      // Another organization's connector answers exactly like a missing one.
      if (!row)
        throw new ServiceError('H404', { message: `connector ${request.params.id} not found` }, { field: 'path.id' });
      const type = findTypeByDefinitionId(row.definition_id, app.service.types);
      if (!type) throw new Error(`connector ${row.id} has unknown definition ${row.definition_id}`);
      return inspectConnector(app.service.store.db, row, type);
    },
  );
};
