/**
 * Response schemas of every endpoint, for the OpenAPI document (the routes themselves do not serialize
 * through them, so a schema here can never drop a field from a live answer). Keyed "METHOD /path".
 */
type Schema = Record<string, unknown>;

const str = (description: string): Schema => ({ type: 'string', description });
const nullableStr = (description: string): Schema => ({ type: ['string', 'null'], description });
const obj = (
  properties: Record<string, Schema>,
  required: string[] = Object.keys(properties),
  description?: string,
): Schema => ({
  type: 'object',
  ...(description && { description }),
  required,
  properties,
});

export const errorBodySchema: Schema = obj(
  {
    message: str('What went wrong, for a person.'),
    errors: {
      type: 'array',
      description: 'One item per problem.',
      items: obj({
        field: nullableStr(
          'Where the problem is: params.limit, query.cursor, path.id, params.query.filter.and[1].eq["properties.email"], ...',
        ),
        message: str('The problem.'),
        error_code: str(
          'Stable snake_case code: validation_error, invalid_filter, invalid_cursor, invalid_limit, unauthorized, not_found, context_store_not_ready, rate_limited, ...',
        ),
        details: {
          type: ['object', 'null'],
          description: 'Extra machine-readable facts (valid values, current status, ...).',
        },
      }),
    },
  },
  ['message', 'errors'],
  'The error body of every endpoint.',
);

const definition = obj({
  sourceDefinitionId: str('Identifier of the connector type (UUID).'),
  name: str('Display name.'),
  iconUrl: str('URL of an icon.'),
  supportLevel: str('certified or community.'),
});

const connectorItem = obj({
  id: str('Connector id.'),
  name: str('Connector name.'),
  workspace_id: str('Workspace holding the connector.'),
  definition_id: str('Its connector type (sourceDefinitionId).'),
  definition_name: nullableStr('Name of its connector type.'),
  created_at: str('ISO 8601 time of creation.'),
  updated_at: str('ISO 8601 time of the last change.'),
});

const workspaceItem = obj({
  id: str('Workspace id.'),
  name: str('Workspace name (default for the first one).'),
  organization_id: str('Owning organization.'),
  status: { type: 'string', enum: ['active', 'inactive'], description: 'Inactive workspaces refuse execute.' },
  cache_enabled: { type: ['boolean', 'null'], description: 'Context store caching setting (null: inherit).' },
  tombstone: { type: 'boolean', description: 'True once deleted.' },
  created_at: str('ISO 8601 time of creation.'),
  updated_at: str('ISO 8601 time of the last change.'),
});

const skillInfo = obj({
  id: str('Skill id: agent:<name> or connector-source:<connector_id>.'),
  kind: { type: 'string', enum: ['static', 'connector_source'], description: 'static guides or one per connector.' },
  title: str('Title.'),
  summary: str('One-line summary.'),
  tags: { type: 'array', items: { type: 'string' }, description: 'Search tags.' },
  warnings: {
    type: 'array',
    items: { type: 'string' },
    description: 'E.g. a context store that is not searchable yet.',
  },
});

const skillPage = obj({
  data: { type: 'array', items: skillInfo, description: 'One page of skills.' },
  next_cursor: nullableStr('cursor of the next page, or null.'),
});

const block: Schema = {
  description: 'A typed content block.',
  oneOf: [
    obj({ type: { const: 'heading' }, level: { type: 'integer' }, text: { type: 'string' } }),
    obj({ type: { const: 'paragraph' }, text: { type: 'string' } }),
    obj({ type: { const: 'list' }, items: { type: 'array', items: { type: 'string' } } }),
    obj({ type: { const: 'code' }, language: { type: 'string' }, code: { type: 'string' } }),
    obj({
      type: { const: 'table' },
      headers: { type: 'array', items: { type: 'string' } },
      rows: { type: 'array', items: { type: 'array', items: { type: 'string' } } },
    }),
  ],
};

const entityReadiness = obj({
  entity: str('Entity name.'),
  status: {
    type: 'string',
    enum: ['Loading', 'Building Preview', 'Preview', 'Ready'],
    description: "Readiness of this entity's index.",
  },
  ready_for_search: {
    type: 'boolean',
    description: 'Whether context_store_search works for this entity now (Preview or Ready).',
  },
  entity_count: { type: 'integer', description: 'Records indexed so far.' },
  updated_at: nullableStr('Last change of the index state.'),
});

export const inspectResponseSchema: Schema = obj({
  connector_id: str('Connector id.'),
  name: str('Connector name.'),
  workspace_id: str('Workspace id.'),
  organization_id: str('Organization id.'),
  source_definition_id: str('Connector type id.'),
  source_definition_name: str('Connector type name.'),
  docs_skill_id: str('connector-source:<connector_id>; pass to /skills/docs?id=.'),
  context_store_status: {
    type: ['string', 'null'],
    enum: ['Loading', 'Building Preview', 'Preview', 'Ready', null],
    description: 'The lowest status over its entities; null for a type without a context store.',
  },
  context_store_readiness: {
    type: ['object', 'null'],
    description: 'Per-entity readiness; null for a type without a context store.',
    properties: {
      connector_id: str('Connector id.'),
      source_definition_id: str('Connector type id.'),
      supported_context_store_entities: {
        type: 'array',
        items: obj({ entity: str('Entity.'), suggested: { type: 'boolean' } }),
      },
      configured_cache_entities: { type: 'array', items: entityReadiness },
    },
  },
  actions: {
    type: 'array',
    description: 'The action catalogue.',
    items: obj({
      entity: str('Entity.'),
      action: str('Action.'),
      required_params: { type: 'array', items: { type: 'string' } },
      optional_params: { type: 'array', items: { type: 'string' } },
      write: { type: 'boolean', description: 'True when the action changes data (create, update, delete, ...).' },
    }),
  },
  warnings: {
    type: 'array',
    items: { type: 'string' },
    description: 'Things a caller should know (e.g. search not ready).',
  },
});

/** The execute envelope (every action except download). */
export const envelopeSchema: Schema = obj({
  status: { type: 'string', const: 'success', description: 'Outcome.' },
  result: {
    description:
      'Array (list), object (get, create, context_store_search {data, meta}), per action; see each variant of the request body.',
  },
  connector_metadata: {
    type: 'object',
    description:
      'Paging state; keys depend on the connector (has_next_page, end_cursor, next_cursor, next_offset, ...).',
  },
  execution_metadata: obj({
    connector_instance_id: str('source_id:<connector_id>'),
    execution_time_ms: { type: 'integer', description: 'Time spent in the service.' },
  }),
});

/** 200 response schema per route ("METHOD /api/v1/..."). */
export const responseSchemas: Record<string, { description: string; schema: Schema }> = {
  'POST /api/v1/account/applications/token': {
    description: 'An application token.',
    schema: obj({
      access_token: str('Signed JWT; send as Authorization: Bearer.'),
      token_type: { type: 'string', const: 'bearer' },
      expires_in: { type: 'integer', description: 'Lifetime in seconds.' },
      organization_id: str('Organization the token acts for.'),
    }),
  },
  'GET /api/v1/integrations/definitions/sources': {
    description: 'The connector catalog.',
    schema: obj({ definitions: { type: 'array', items: definition } }),
  },
  'GET /api/v1/integrations/definitions/sources/:id': { description: 'One connector definition.', schema: definition },
  'GET /api/v1/integrations/connectors': {
    description: 'Connectors of a workspace.',
    schema: obj({ data: { type: 'array', items: connectorItem } }),
  },
  'POST /api/v1/integrations/connectors': { description: 'The new connector.', schema: connectorItem },
  'GET /api/v1/integrations/connectors/:id': { description: 'One connector.', schema: connectorItem },
  'DELETE /api/v1/integrations/connectors/:id': {
    description: 'The connector and its data are gone.',
    schema: obj({ id: str('Deleted connector id.'), deleted: { type: 'boolean', const: true } }),
  },
  'GET /api/v1/integrations/connectors/:id/inspect': {
    description: 'Identity, readiness and the action catalogue.',
    schema: inspectResponseSchema,
  },
  'GET /api/v1/workspaces': {
    description: 'One page of workspaces.',
    schema: obj({ data: { type: 'array', items: workspaceItem }, next: nullableStr('URL of the next page, or null.') }),
  },
  'GET /api/v1/workspaces/:id': { description: 'One workspace.', schema: workspaceItem },
  'PUT /api/v1/workspaces/:id': { description: 'The updated workspace.', schema: workspaceItem },
  'DELETE /api/v1/workspaces/:id': {
    description: 'The workspace is deleted.',
    schema: obj({ id: str('Deleted workspace id.'), deleted_at: str('ISO 8601 time of deletion.') }),
  },
  'GET /api/v1/skills': { description: 'One page of skills.', schema: skillPage },
  'GET /api/v1/skills/search': { description: 'One page of matching skills.', schema: skillPage },
  'GET /api/v1/skills/docs': {
    description: "The skill's outline and the content of a section (or the overview).",
    schema: obj({
      metadata: skillInfo,
      outline: {
        type: 'array',
        items: obj({
          id: str('Section id.'),
          title: str('Title.'),
          summary: str('Summary.'),
          available: { type: 'boolean' },
        }),
      },
      section_id: nullableStr('The section answered, or null for the overview.'),
      content: { type: 'array', items: block },
    }),
  },
  'GET /api/v1/openapi.json': {
    description: 'This document.',
    schema: { type: 'object', description: 'An OpenAPI 3.1 document.' },
  },
};
