import type { FastifyPluginAsync } from 'fastify';
import { findTypeByDefinitionId, findTypeBySlugOrName } from '../core/connector-type.js';
import type { ConnectorType } from '../core/connector-type.js';
import { ServiceError } from '../core/errors.js';
import {
  createConnector,
  deleteConnector,
  findConnector,
  listConnectors,
  type PublicConnectorRow,
} from '../store/connectors.js';
import { findWorkspaceById, findWorkspaceByName } from '../store/workspaces.js';

/** A connector as the API shows it: never its credentials. */
export function toConnectorItem(row: PublicConnectorRow, types: readonly ConnectorType[]) {
  return {
    id: row.id,
    name: row.name,
    workspace_id: row.workspace_id,
    definition_id: row.definition_id,
    definition_name: findTypeByDefinitionId(row.definition_id, types)?.definition.name ?? null,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

const listQuery = {
  type: 'object',
  properties: {
    workspace_name: { type: 'string', minLength: 1, maxLength: 200 },
    workspace_id: { type: 'string', minLength: 1, maxLength: 100 },
    definition_id: { type: 'string', minLength: 1, maxLength: 100 },
  },
  additionalProperties: false,
} as const;

const createBody = {
  type: 'object',
  required: ['workspace_name'],
  properties: {
    workspace_name: { type: 'string', minLength: 1, maxLength: 200 },
    definition_id: { type: 'string', minLength: 1, maxLength: 100 },
    connector_type: { type: 'string', minLength: 1, maxLength: 100 },
    name: { type: 'string', minLength: 1, maxLength: 200 },
    credentials: { type: 'object' },
  },
  additionalProperties: false,
} as const;

interface CreateBody {
  workspace_name: string;
  definition_id?: string;
  connector_type?: string;
  name?: string;
  credentials?: Record<string, unknown>;
}

/** Resolves definition_id or connector_type to a type; 422 when neither is given, 404 when unknown. */
function resolveType(body: CreateBody, types: readonly ConnectorType[]): ConnectorType {
  if (body.definition_id === undefined && body.connector_type === undefined) {
    throw new ServiceError(
      'H422',
      { message: 'One of connector_type or definition_id must be provided' },
      { field: 'body' },
    );
  }
  if (body.definition_id !== undefined) {
    const t = findTypeByDefinitionId(body.definition_id, types);
    if (!t)
      throw new ServiceError(
        'H404',
        { message: `no connector definition with id ${body.definition_id}` },
        { field: 'definition_id' },
      );
    if (body.connector_type !== undefined && findTypeBySlugOrName(body.connector_type, types) !== t) {
      throw new ServiceError('H400_CONFLICTING_TYPE', {}, { field: 'connector_type' });
    }
    return t;
  }
  const t = findTypeBySlugOrName(body.connector_type!, types);
  if (!t)
    throw new ServiceError(
      'H404',
      { message: `no connector type named "${body.connector_type}"` },
      { field: 'connector_type' },
    );
  return t;
}

/** List, create, get and delete connectors, always within the token's organization. */
export const connectorRoutes: FastifyPluginAsync = async (app) => {
  const db = () => app.service.store.db;

  app.get<{ Querystring: { workspace_name?: string; workspace_id?: string; definition_id?: string } }>(
    '/integrations/connectors',
    { schema: { querystring: listQuery } },
    async (request) => {
      const { workspace_name, workspace_id, definition_id } = request.query;
      if (workspace_name === undefined && workspace_id === undefined) {
        throw new ServiceError('H400_WORKSPACE_REQUIRED', {}, { field: 'query.workspace_name' });
      }
      const org = request.organizationId;
      const ws =
        workspace_id !== undefined
          ? await findWorkspaceById(db(), org, workspace_id)
          : await findWorkspaceByName(db(), org, workspace_name!);
      if (!ws || (workspace_name !== undefined && ws.name !== workspace_name)) {
        throw new ServiceError(
          'H404',
          { message: `workspace ${workspace_id ?? `"${workspace_name}"`} not found` },
          { field: workspace_id !== undefined ? 'query.workspace_id' : 'query.workspace_name' },
        );
      }
      const rows = await listConnectors(db(), org, ws.id, definition_id);
      return { data: rows.map((r) => toConnectorItem(r, app.service.types)) };
    },
  );

  app.post<{ Body: CreateBody }>('/integrations/connectors', { schema: { body: createBody } }, async (request) => {
    const body = request.body;
    const type = resolveType(body, app.service.types);
    const org = request.organizationId;
    const ws = await findWorkspaceByName(db(), org, body.workspace_name);
    if (!ws)
      throw new ServiceError(
        'H404',
        { message: `workspace "${body.workspace_name}" not found` },
        { field: 'workspace_name' },
      );
    const row = await createConnector(
      db(),
      {
        organizationId: org,
        workspaceId: ws.id,
        definitionId: type.definition.id,
        name: body.name ?? `${type.definition.name} - ${ws.name}`,
        credentials: body.credentials ?? {},
      },
      app.service.now(),
    );
    return toConnectorItem(row, app.service.types);
  });

  app.get<{ Params: { id: string } }>('/integrations/connectors/:id', async (request) => {
    const row = await findConnector(db(), request.organizationId, request.params.id);
    if (!row)
      throw new ServiceError('H404', { message: `connector ${request.params.id} not found` }, { field: 'path.id' });
    return toConnectorItem(row, app.service.types);
  });

  app.delete<{ Params: { id: string } }>('/integrations/connectors/:id', async (request) => {
    const org = request.organizationId;
    const id = request.params.id;
    const deleted = await app.service.store.transaction(async (trx) => {
      if (!(await findConnector(trx, org, id))) return false;
      return deleteConnector(trx, org, id);
    });
    if (!deleted) throw new ServiceError('H404', { message: `connector ${id} not found` }, { field: 'path.id' });
    return { id, deleted: true };
  });
};
