import type { FastifyPluginAsync } from 'fastify';
import { createActionIndex } from '../core/action-index.js';
import { findTypeByDefinitionId, type ActionResult } from '../core/connector-type.js';
import { ServiceError } from '../core/errors.js';
import { validateWith } from '../core/params-validator.js';
import { actionContext } from '../core/service-context.js';
import type { Store } from '../core/store.js';
import { contentDisposition } from '../http/content-disposition.js';
import { applyFieldSelection } from '../http/field-selection.js';
import { executeOnce, idempotencyKeyOf } from '../idempotency/idempotency-keys.js';
import { createConnectorLookup } from '../store/connector-lookup-cache.js';
import { toConnectorInstance } from '../store/connectors.js';

interface ExecuteBody {
  entity: string;
  action: string;
  params?: Record<string, unknown>;
  select_fields?: string[] | null;
  exclude_fields?: string[] | null;
  skip_truncation?: boolean;
  intent?: string | null;
}

const fieldList = {
  type: ['array', 'null'],
  maxItems: 200,
  items: { type: 'string', minLength: 1, maxLength: 300 },
} as const;

const bodySchema = {
  type: 'object',
  required: ['entity', 'action'],
  properties: {
    entity: { type: 'string', minLength: 1, maxLength: 100 },
    action: { type: 'string', minLength: 1, maxLength: 100 },
    params: { type: 'object' },
    select_fields: fieldList,
    exclude_fields: fieldList,
    // The published contract's: nothing is truncated here, so skip_truncation changes nothing; intent is
    // the caller's note of why (accepted, not stored).
    skip_truncation: { type: 'boolean' },
    intent: { type: ['string', 'null'], maxLength: 512 },
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
      const { entity, action, select_fields: select, exclude_fields: exclude } = request.body;
      const selecting = select != null && select.length > 0;
      const params = request.body.params ?? {};
      const { descriptor, validator } = findAction(type, entity, action);
      validateWith(validator(), params, 'params');

      const connector = toConnectorInstance(row);
      const baseUrl = `${request.protocol}://${request.host}`;
      const act = (store: Store): Promise<ActionResult> =>
        type.execute(actionContext(svc, connector, baseUrl, store), entity, action, params);
      const envelope = (result: unknown, connectorMetadata: Record<string, unknown> | undefined) => ({
        status: 'success',
        // As the published contract says: select_fields wins, exclude_fields is ignored when it is given.
        result: selecting
          ? applyFieldSelection(result, select)
          : applyFieldSelection(result, undefined, exclude ?? undefined),
        connector_metadata: connectorMetadata ?? {},
        execution_metadata: {
          connector_instance_id: `source_id:${connector.id}`,
          execution_time_ms: Math.round(performance.now() - started),
        },
      });
      // A write with an Idempotency-Key runs at most once per key (idempotency/idempotency-keys.ts).
      const key = descriptor.write ? idempotencyKeyOf(request.headers['idempotency-key']) : undefined;
      if (key !== undefined) {
        const answer = await executeOnce(
          svc.store,
          request.organizationId,
          key,
          { connector: request.params.id, body: request.body },
          svc.now(),
          async (store) => {
            const out = await act(store);
            // No write action answers bytes (a connector type's bug, not the request's).
            if (out.kind === 'bytes') throw new Error(`${entity}.${action} is a write that answered bytes`);
            return { status: 200, body: JSON.stringify(envelope(out.result, out.connectorMetadata)) };
          },
        );
        return reply
          .status(answer.status)
          .header('idempotent-replayed', String(answer.replayed))
          .type('application/json; charset=utf-8')
          .send(answer.body);
      }
      const out = await act(svc.store);
      if (out.kind === 'bytes') {
        // Never an empty 200: a download with no content is a failure the client must see.
        if (out.body.length === 0) throw new ServiceError('H404', { message: 'the file has no content' });
        return reply
          .header('content-type', out.contentType)
          .header('content-disposition', contentDisposition(out.filename))
          .send(out.body);
      }
      return envelope(out.result, out.connectorMetadata);
    },
  );
};
