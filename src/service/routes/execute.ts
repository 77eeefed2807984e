import type { FastifyPluginAsync } from 'fastify';
import { createActionIndex } from '../core/action-index.js';
import { findTypeByDefinitionId } from '../core/connector-type.js';
import { ServiceError } from '../core/errors.js';
import { validateWith } from '../core/params-validator.js';
import { actionContext } from '../core/service-context.js';
import { applyFieldSelection } from '../http/field-selection.js';
import { createConnectorLookup } from '../store/connector-lookup-cache.js';
import { toConnectorInstance } from '../store/connectors.js';

interface ExecuteBody {
  entity: string;
  action: string;
  params?: Record<string, unknown>;
  select_fields?: string[];
  exclude_fields?: string[];
}

const fieldList = { type: 'array', maxItems: 200, items: { type: 'string', minLength: 1, maxLength: 300 } } as const;

const bodySchema = {
  type: 'object',
  required: ['entity', 'action'],
  properties: {
    entity: { type: 'string', minLength: 1, maxLength: 100 },
    action: { type: 'string', minLength: 1, maxLength: 100 },
    params: { type: 'object' },
    select_fields: fieldList,
    exclude_fields: fieldList,
  },
  additionalProperties: false,
} as const;

/** POST /integrations/connectors/:id/execute: the one endpoint that reads and acts through a connector. */
export const executeRoutes: FastifyPluginAsync = async (app) => {
  const findConnectorCached = createConnectorLookup(app.service.store);
  const findAction = createActionIndex(app.service.types);
  app.post<{ Params: { id: string }; Body: ExecuteBody }>(
    '/integrations/connectors/:id/execute',
    { schema: { body: bodySchema } },
    async (request, reply) => {
      const started = performance.now();
      const svc = app.service;
      const row = await findConnectorCached(request.organizationId, request.params.id);
      if (!row)
        throw new ServiceError('H404', { message: `connector ${request.params.id} not found` }, { field: 'path.id' });
      if (row.workspace_status !== 'active') {
        throw new ServiceError('H403_WORKSPACE_INACTIVE', {
          workspace: row.workspace_name,
          workspaceId: row.workspace_id,
        });
      }
      const type = findTypeByDefinitionId(row.definition_id, svc.types);
      if (!type) throw new Error(`connector ${row.id} has unknown definition ${row.definition_id}`);
      const { entity, action } = request.body;
      const params = request.body.params ?? {};
      validateWith(findAction(type, entity, action).validator(), params, 'params');

      const connector = toConnectorInstance(row);
      const ctx = actionContext(svc, connector, `${request.protocol}://${request.host}`);
      const out = await type.execute(ctx, entity, action, params);
      if (out.kind === 'bytes') {
        // Never an empty 200: a download with no content is a failure the client must see.
        if (out.body.length === 0) throw new ServiceError('H404', { message: 'the file has no content' });
        const filename = out.filename.replace(/["\\\r\n]/g, '_');
        return reply
          .header('content-type', out.contentType)
          .header('content-disposition', `attachment; filename="${filename}"`)
          .send(out.body);
      }
      return {
        status: 'success',
        result: applyFieldSelection(out.result, request.body.select_fields, request.body.exclude_fields),
        connector_metadata: out.connectorMetadata ?? {},
        execution_metadata: {
          connector_instance_id: `source_id:${connector.id}`,
          execution_time_ms: Math.round(performance.now() - started),
        },
      };
    },
  );
};
