import { randomUUID } from 'node:crypto';
import type { FastifyPluginAsync } from 'fastify';
import { findTypeByDefinitionId, findTypeBySlugOrName } from '../core/connector-type.js';
import type { ConnectorType } from '../core/connector-type.js';
import { ServiceError } from '../core/errors.js';
import { detailedSourceTemplate, sourceTemplateId, summarizedSourceTemplate } from '../core/source-template.js';
import {
  createConnector,
  deleteConnector,
  findConnector,
  findConnectorConfig,
  listConnectors,
  updateConnector,
  type ConnectorConfig,
  type PublicConnectorRow,
  type RequestedEntity,
} from '../store/connectors.js';
import { findWorkspaceById, findWorkspaceByName } from '../store/workspaces.js';

/** Our fields beside the published ones: which workspace and type (the engine's lookup reads definition_id). */
function ownFields(row: PublicConnectorRow, type: ConnectorType | undefined) {
  return {
    workspace_id: row.workspace_id,
    definition_id: row.definition_id,
    definition_name: type?.definition.name ?? null,
  };
}

/** A connector as the list shows it (the published ConnectorSourceListItem): never its credentials. */
export function toConnectorItem(row: PublicConnectorRow, types: readonly ConnectorType[]) {
  const type = findTypeByDefinitionId(row.definition_id, types);
  return {
    id: row.id,
    name: row.name,
    ...(type && { summarized_source_template: summarizedSourceTemplate(type) }),
    ...ownFields(row, type),
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

/** A connector as get, create and update answer it (the published ConnectorSourceGetResponse). */
function toConnectorDetail(row: PublicConnectorRow, config: ConnectorConfig, types: readonly ConnectorType[]) {
  const type = findTypeByDefinitionId(row.definition_id, types);
  return {
    id: row.id,
    name: row.name,
    ...(type && { source_template: detailedSourceTemplate(type) }),
    replication_config: config.replication_config,
    entities: config.entities,
    ...ownFields(row, type),
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

const nullableString = (max: number) => ({ type: ['string', 'null'], minLength: 1, maxLength: max }) as const;
const nullableObject = { type: ['object', 'null'], additionalProperties: true } as const;
const entitiesSchema = {
  type: ['array', 'null'],
  maxItems: 100,
  items: {
    type: 'object',
    required: ['entity'],
    properties: {
      entity: { type: 'string', minLength: 1, maxLength: 100 },
      modes: { type: ['array', 'null'], maxItems: 2, items: { type: 'string', enum: ['read', 'write'] } },
    },
    additionalProperties: false,
  },
} as const;

const listQuery = {
  type: 'object',
  properties: {
    workspace_name: { type: 'string', minLength: 1, maxLength: 200 },
    workspace_id: { type: 'string', minLength: 1, maxLength: 100 },
    customer_name: {
      type: 'string',
      minLength: 1,
      maxLength: 200,
      description: 'Deprecated name of workspace_name.',
      deprecated: true,
    },
    external_user_id: {
      type: 'string',
      minLength: 1,
      maxLength: 200,
      description: 'Deprecated name of workspace_name.',
      deprecated: true,
    },
    definition_id: { type: 'string', minLength: 1, maxLength: 100 },
  },
  additionalProperties: false,
} as const;

const createBody = {
  type: 'object',
  required: ['workspace_name'],
  properties: {
    workspace_name: { type: 'string', minLength: 1, maxLength: 200 },
    definition_id: nullableString(100),
    connector_type: nullableString(100),
    source_template_id: nullableString(100),
    name: nullableString(200),
    credentials: nullableObject,
    replication_config: nullableObject,
    environment: nullableObject,
    entities: entitiesSchema,
    server_side_oauth_secret_id: { type: ['string', 'null'], maxLength: 500 },
    selected_connection_template_tags: { type: 'array', maxItems: 100, items: { type: 'string', maxLength: 200 } },
    selected_connection_template_tags_mode: { type: 'string', enum: ['all', 'any'] },
  },
  additionalProperties: false,
} as const;

const updateBody = {
  type: 'object',
  properties: { name: nullableString(200), replication_config: nullableObject, entities: entitiesSchema },
  additionalProperties: false,
} as const;

interface CreateBody {
  workspace_name: string;
  definition_id?: string | null;
  connector_type?: string | null;
  source_template_id?: string | null;
  name?: string | null;
  credentials?: Record<string, unknown> | null;
  replication_config?: Record<string, unknown> | null;
  environment?: Record<string, unknown> | null;
  entities?: RequestedEntity[] | null;
}

interface UpdateBody {
  name?: string | null;
  replication_config?: Record<string, unknown> | null;
  entities?: RequestedEntity[] | null;
}

interface ListQuery {
  workspace_name?: string;
  workspace_id?: string;
  customer_name?: string;
  external_user_id?: string;
  definition_id?: string;
}

/**
 * Resolves definition_id, connector_type or source_template_id (null = not given) to a type: 422 when none
 * is given, 404 when the first given is unknown, 400 when another names no type or a different one.
 */
function resolveType(body: CreateBody, types: readonly ConnectorType[]): ConnectorType {
  const given: { field: string; type: ConnectorType | undefined; what: string }[] = [];
  if (body.definition_id != null)
    given.push({
      field: 'definition_id',
      type: findTypeByDefinitionId(body.definition_id, types),
      what: `no connector definition with id ${body.definition_id}`,
    });
  if (body.connector_type != null)
    given.push({
      field: 'connector_type',
      type: findTypeBySlugOrName(body.connector_type, types),
      what: `no connector type named "${body.connector_type}"`,
    });
  if (body.source_template_id != null) {
    const id = body.source_template_id.toLowerCase();
    given.push({
      field: 'source_template_id',
      type: types.find((t) => sourceTemplateId(t.definition) === id),
      what: `no source template with id ${body.source_template_id}`,
    });
  }
  if (given.length === 0) {
    throw new ServiceError(
      'H422',
      { message: 'One of connector_type or definition_id must be provided' },
      { field: 'body' },
    );
  }
  // The first one given decides (404 when unknown); another that names no type or a different one is a clash.
  const first = given[0]!;
  if (!first.type) throw new ServiceError('H404', { message: first.what }, { field: first.field });
  const other = given.find((g) => g.type !== first.type);
  if (other)
    throw new ServiceError(
      'H400_CONFLICTING_TYPE',
      { fields: `${first.field} and ${other.field}` },
      { field: other.field },
    );
  return first.type!;
}

/** 400 unknown_entity for a requested entity the type does not have. */
function checkEntities(entities: RequestedEntity[] | null | undefined, type: ConnectorType): void {
  if (!entities) return;
  const valid = [...new Set(type.actions.map((a) => a.entity))];
  entities.forEach((e, i) => {
    if (!valid.includes(e.entity))
      throw new ServiceError(
        'H400_UNKNOWN_ENTITY',
        { type: type.definition.name, entity: e.entity, valid: valid.join(', ') },
        { field: `entities[${i}].entity`, details: { valid_entities: valid } },
      );
  });
}

/** The one workspace name of a list request: workspace_name or its deprecated names, which must agree. */
function workspaceNameOf(q: ListQuery): string | undefined {
  const names = (['workspace_name', 'customer_name', 'external_user_id'] as const).filter((k) => q[k] !== undefined);
  const first = names[0];
  const clash = names.find((k) => q[k] !== q[first!]);
  if (clash)
    throw new ServiceError(
      'H400',
      { message: `query.${first} and query.${clash} name different workspaces; give one` },
      { field: `query.${clash}` },
    );
  return first === undefined ? undefined : q[first];
}

/** List, create, get, update and delete connectors, always within the token's organization. */
export const connectorRoutes: FastifyPluginAsync = async (app) => {
  const db = () => app.service.store.db;
  const notFound = (id: string) =>
    new ServiceError('H404', { message: `connector ${id} not found` }, { field: 'path.id' });

  app.get<{ Querystring: ListQuery }>(
    '/integrations/connectors',
    { schema: { querystring: listQuery } },
    async (request) => {
      const { workspace_id, definition_id } = request.query;
      const workspace_name = workspaceNameOf(request.query);
      const org = request.organizationId;
      // No workspace named: every live workspace of the organization (the published contract's parameters
      // are all optional).
      if (workspace_name === undefined && workspace_id === undefined) {
        const rows = await listConnectors(db(), org, null, definition_id);
        return { data: rows.map((r) => toConnectorItem(r, app.service.types)) };
      }
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
    checkEntities(body.entities, type);
    const org = request.organizationId;
    const ws = await findWorkspaceByName(db(), org, body.workspace_name);
    if (!ws)
      throw new ServiceError(
        'H404',
        { message: `workspace "${body.workspace_name}" not found` },
        { field: 'workspace_name' },
      );
    const config: ConnectorConfig = {
      replication_config: body.replication_config ?? {},
      entities: body.entities ?? null,
    };
    const row = await createConnector(
      db(),
      {
        organizationId: org,
        workspaceId: ws.id,
        definitionId: type.definition.id,
        name: body.name ?? `${type.definition.name} - ${ws.name}`,
        credentials: body.credentials ?? {},
        replicationConfig: config.replication_config,
        environment: body.environment ?? {},
        entities: config.entities,
      },
      app.service.now(),
    );
    return toConnectorDetail(row, config, app.service.types);
  });

  app.get<{ Params: { id: string } }>('/integrations/connectors/:id', async (request) => {
    const row = await findConnector(db(), request.organizationId, request.params.id);
    if (!row) throw notFound(request.params.id);
    const config = await findConnectorConfig(db(), request.organizationId, row.id);
    return toConnectorDetail(row, config, app.service.types);
  });

  app.put<{ Params: { id: string }; Body: UpdateBody }>(
    '/integrations/connectors/:id',
    { schema: { body: updateBody } },
    async (request) => {
      const org = request.organizationId;
      const id = request.params.id;
      const body = request.body;
      const { row, config } = await app.service.store.transaction(async (trx) => {
        const found = await findConnector(trx, org, id);
        if (!found) throw notFound(id);
        const type = findTypeByDefinitionId(found.definition_id, app.service.types);
        if (type) checkEntities(body.entities, type);
        // null, like an omitted field, keeps the current value.
        await updateConnector(
          trx,
          org,
          id,
          {
            ...(body.name != null && { name: body.name }),
            ...(body.replication_config != null && { replicationConfig: body.replication_config }),
            ...(body.entities != null && { entities: body.entities }),
          },
          app.service.now(),
        );
        return { row: (await findConnector(trx, org, id))!, config: await findConnectorConfig(trx, org, id) };
      });
      return toConnectorDetail(row, config, app.service.types);
    },
  );

  // 202 with a job id, as the published contract answers; here the deletion is done before the answer.
  app.delete<{ Params: { id: string } }>('/integrations/connectors/:id', async (request, reply) => {
    const org = request.organizationId;
    const id = request.params.id;
    const deleted = await app.service.store.transaction(async (trx) => {
      if (!(await findConnector(trx, org, id))) return false;
      return deleteConnector(trx, org, id);
    });
    if (!deleted) throw notFound(id);
    return reply.status(202).send({ job_id: randomUUID(), id, deleted: true });
  });
};
