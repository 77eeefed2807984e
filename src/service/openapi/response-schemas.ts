/**
 * Response schemas of every endpoint, for the OpenAPI document (the routes themselves do not serialize
 * through them, so a schema here can never drop a field from a live answer). Keyed "METHOD /path".
 */
type Schema = Record<string, unknown>;

const str = (description: string): Schema => ({ type: 'string', description });
/** One fixed value: const, with enum beside it for tools that read only enum. */
const fixed = (value: string | boolean, description?: string): Schema => ({
  type: typeof value,
  const: value,
  enum: [value],
  ...(description && { description }),
});
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
          additionalProperties: true,
          description: 'Extra machine-readable facts (valid values, current status, ...).',
        },
      }),
    },
  },
  ['message', 'errors'],
  'The error body of every endpoint.',
);

const uuid = (description: string): Schema => ({ type: 'string', format: 'uuid', description });
const dateTime = (description: string): Schema => ({ type: 'string', format: 'date-time', description });
const strings = (description: string): Schema => ({ type: 'array', items: { type: 'string' }, description });
/** An object whose keys are the caller's (configuration, credentials). */
const openObject = (description: string): Schema => ({ type: 'object', additionalProperties: true, description });

const definition = obj({
  sourceDefinitionId: uuid('Identifier of the connector type.'),
  name: str('Display name.'),
  iconUrl: str('URL of an icon.'),
  supportLevel: { type: 'string', enum: ['certified', 'community'], description: 'Support level.' },
});

const connectionSpecification = obj(
  {
    $schema: str('JSON Schema dialect.'),
    title: str('Title.'),
    description: str('What the credentials are.'),
    type: fixed('object'),
    required: strings('Required credential fields (none here).'),
    properties: openObject('Credential fields (none here).'),
  },
  ['type'],
  'JSON Schema of the credentials a connector of this type takes.',
);

const definitionDetail = obj(
  {
    id: uuid('Identifier of the connector type.'),
    definition: obj(
      {
        sourceDefinitionId: uuid('Identifier of the connector type.'),
        name: str('Display name.'),
        iconUrl: str('URL of an icon.'),
        custom: { type: 'boolean', description: 'Always false: every type is built in.' },
        supportLevel: { type: 'string', enum: ['certified', 'community'] },
        spec: obj({ connectionSpecification }, ['connectionSpecification']),
      },
      ['name', 'spec'],
    ),
    example_questions: obj({
      direct: strings('Questions list and get answer.'),
      search: strings('Questions context_store_search answers.'),
    }),
    ...(definition.properties as Record<string, Schema>),
  },
  ['id', 'definition', 'example_questions', 'sourceDefinitionId', 'name', 'iconUrl', 'supportLevel'],
  'The published SourceDefinitionResponse, with the catalog item fields beside it.',
);

const templateCommon: Record<string, Schema> = {
  id: uuid("The type's one source template (derived from the definition id)."),
  name: str('Name of the connector type.'),
  icon: str('URL of an icon.'),
  tags: strings('Always empty.'),
  customization: { type: 'null', description: 'No customization here.' },
  mode: { type: 'string', enum: ['DIRECT'], description: 'Connectors run directly.' },
  runtime_mode: { type: 'string', enum: ['direct_only', 'direct_and_context_store'] },
  supports_context_store: { type: 'boolean', description: 'Whether the type keeps a context store.' },
  created_at: { type: 'null' },
  updated_at: { type: 'null' },
};

const summarizedTemplate = obj(
  {
    ...templateCommon,
    connector_name: str('Slug of the connector type (connector_type on create).'),
    organization_id: { type: 'null', description: 'Templates here belong to no organization.' },
    actor_definition_id: uuid('Identifier of the connector type.'),
  },
  ['id', 'name', 'icon', 'actor_definition_id'],
);

const detailedTemplate = obj(
  {
    ...templateCommon,
    source_definition_id: uuid('Identifier of the connector type.'),
    user_config_spec: obj({ connectionSpecification }, ['connectionSpecification']),
    partial_default_config: openObject('Defaults (none here).'),
    is_experimental: { type: 'boolean' },
  },
  ['id', 'name', 'source_definition_id', 'user_config_spec', 'partial_default_config'],
);

const ownConnectorFields: Record<string, Schema> = {
  workspace_id: uuid('Workspace holding the connector.'),
  definition_id: uuid('Its connector type (sourceDefinitionId).'),
  definition_name: nullableStr('Name of its connector type.'),
  created_at: dateTime('Time of creation.'),
  updated_at: dateTime('Time of the last change.'),
};

const connectorItem = obj(
  {
    id: uuid('Connector id.'),
    name: str('Connector name.'),
    summarized_source_template: summarizedTemplate,
    ...ownConnectorFields,
  },
  undefined,
  'The published ConnectorSourceListItem, with the workspace and type beside it.',
);

const requestedEntities: Schema = {
  type: ['array', 'null'],
  description: 'Entity/mode pairs given on create or update (stored and answered; they do not restrict execute).',
  items: obj(
    {
      entity: str('An entity of the type.'),
      modes: { type: ['array', 'null'], items: { type: 'string', enum: ['read', 'write'] } },
    },
    ['entity'],
  ),
};

const connectorDetail = obj(
  {
    id: uuid('Connector id.'),
    name: str('Connector name.'),
    source_template: detailedTemplate,
    replication_config: openObject('As given on create or update ({} when none was).'),
    entities: requestedEntities,
    ...ownConnectorFields,
  },
  undefined,
  'The published ConnectorSourceGetResponse, with the workspace and type beside it.',
);

const workspaceItem = obj({
  id: str('Workspace id.'),
  name: str('Workspace name (default for the first one).'),
  organization_id: str('Owning organization.'),
  status: { type: 'string', enum: ['active', 'inactive'], description: 'Inactive workspaces refuse execute.' },
  cache_enabled: { type: ['boolean', 'null'], description: 'Context store caching setting (null: inherit).' },
  tombstone: { type: 'boolean', description: 'True once deleted.' },
  visibility: { type: 'string', enum: ['shared'], description: 'Every workspace is shared by the organization.' },
  color: { type: 'null', description: 'No display colors are kept.' },
  created_at: dateTime('Time of creation.'),
  updated_at: dateTime('Time of the last change.'),
});

const skillInfo = obj(
  {
    id: str('Skill id: agent:<name> or connector-source:<connector_id>.'),
    kind: { type: 'string', enum: ['static', 'connector_source'], description: 'static guides or one per connector.' },
    title: str('Title.'),
    summary: str('One-line summary.'),
    tags: { type: 'array', items: { type: 'string' }, description: 'Search tags.' },
    provenance: str('Where the docs come from: a bundled guide, or a connector type definition.'),
    version: str('Fingerprint of what the docs are generated from.'),
    freshness: obj(
      { state: { type: 'string', enum: ['static', 'live'] }, checked_at: nullableStr('Not kept here.') },
      ['state'],
      'static for bundled guides, live for connector docs.',
    ),
    warnings: {
      type: 'array',
      items: { type: 'string' },
      description: 'E.g. a context store that is not searchable yet.',
    },
  },
  ['id', 'kind', 'title', 'summary', 'tags', 'provenance', 'version', 'freshness', 'warnings'],
);

const skillPage = obj({
  data: { type: 'array', items: skillInfo, description: 'One page of skills.' },
  next_cursor: nullableStr('cursor of the next page, or null.'),
});

const block: Schema = {
  description: 'A typed content block.',
  oneOf: [
    obj({ type: fixed('heading'), level: { type: 'integer' }, text: { type: 'string' } }),
    obj({ type: fixed('paragraph'), text: { type: 'string' } }),
    obj({ type: fixed('list'), items: { type: 'array', items: { type: 'string' } } }),
    obj({ type: fixed('code'), language: { type: 'string' }, code: { type: 'string' } }),
    obj({
      type: fixed('table'),
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
  supported: { type: 'boolean', description: 'Whether the type declares the entity (always here).' },
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
  source_config_template_id: uuid("The type's one source template."),
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
    items: obj(
      {
        entity: str('Entity.'),
        action: str('Action.'),
        required_params: { type: 'array', items: { type: 'string' } },
        optional_params: { type: 'array', items: { type: 'string' } },
        write: { type: 'boolean', description: 'True when the action changes data (create, update, delete, ...).' },
        idempotent: {
          type: 'boolean',
          description:
            'Present (true) on a write whose repetition changes nothing: it may be sent again after a reset.',
        },
      },
      ['entity', 'action', 'required_params', 'optional_params', 'write'],
    ),
  },
  warnings: {
    type: 'array',
    items: { type: 'string' },
    description: 'Things a caller should know (e.g. search not ready).',
  },
});

/** The execute envelope (every action except download). */
export const envelopeSchema: Schema = obj({
  status: fixed('success', 'Outcome.'),
  result: {
    description:
      'Array (list), object (get, create, context_store_search {data, meta}), per action; see each variant of the request body.',
  },
  connector_metadata: {
    type: 'object',
    additionalProperties: true,
    description:
      'Paging state; keys depend on the connector (has_next_page, end_cursor, next_cursor, next_offset, ...).',
  },
  execution_metadata: obj({
    connector_instance_id: str('source_id:<connector_id>'),
    execution_time_ms: { type: 'integer', description: 'Time spent in the service.' },
  }),
});

/** 200 response schema per route ("METHOD /api/v1/..."). */
export const responseSchemas: Record<string, { status?: number; description: string; schema: Schema }> = {
  'POST /api/v1/account/applications/token': {
    description: 'An application token.',
    schema: obj({
      access_token: str('Signed JWT; send as Authorization: Bearer.'),
      token_type: fixed('bearer'),
      expires_in: { type: 'integer', description: 'Lifetime in seconds.' },
      organization_id: str('Organization the token acts for.'),
    }),
  },
  'GET /api/v1/integrations/definitions/sources': {
    description: 'The connector catalog.',
    schema: obj({ definitions: { type: 'array', items: definition } }),
  },
  'GET /api/v1/integrations/definitions/sources/:id': {
    description: 'One connector definition.',
    schema: definitionDetail,
  },
  'GET /api/v1/integrations/connectors': {
    description: 'Connectors of a workspace.',
    schema: obj({ data: { type: 'array', items: connectorItem } }),
  },
  'POST /api/v1/integrations/connectors': { description: 'The new connector.', schema: connectorDetail },
  'GET /api/v1/integrations/connectors/:id': { description: 'One connector.', schema: connectorDetail },
  'PUT /api/v1/integrations/connectors/:id': { description: 'The updated connector.', schema: connectorDetail },
  'DELETE /api/v1/integrations/connectors/:id': {
    status: 202,
    description: 'Accepted; the connector and its data are already gone when this answers.',
    schema: obj({
      job_id: uuid('Id of the deletion (done already).'),
      id: uuid('Deleted connector id.'),
      deleted: fixed(true),
    }),
  },
  'POST /api/v1/account/applications/scoped-token': {
    description: 'A token for one workspace (created when missing).',
    schema: obj({ token: str('Signed JWT; GET /account/applications/scoped-token/info reads it.') }),
  },
  'POST /api/v1/account/applications/widget-token': {
    description: 'A widget token for one workspace (created when missing).',
    schema: obj({ token: str('Signed JWT; GET /account/applications/scoped-token/info reads it.') }),
  },
  'GET /api/v1/account/applications/scoped-token/info': {
    description: 'The organization and workspace of a scoped or widget token.',
    schema: obj({
      organization_id: uuid('Organization of the token.'),
      workspace_id: uuid('Workspace of the token.'),
      workspace_name: str('Name of that workspace.'),
    }),
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
    schema: obj({ id: uuid('Deleted workspace id.'), deleted_at: dateTime('Time of deletion.') }),
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
    schema: { type: 'object', additionalProperties: true, description: 'An OpenAPI 3.1 document.' },
  },
};
