/**
 * The summary, description and error statuses of each operation of the OpenAPI document, keyed
 * "METHOD /path" as Fastify registers it. Statuses every operation may answer (400, 500; 401, 403 and 429
 * with a bearer token; 413 and 415 with a body) are added by document.ts; these are the others.
 */
export interface OperationDoc {
  summary: string;
  description: string;
  /** Error statuses beyond the common ones, each with when it happens. */
  errors?: Record<number, string>;
}

const NOT_FOUND_CONNECTOR = "Unknown connector (also another organization's, or one in a deleted workspace).";

export const operationDocs: Record<string, OperationDoc> = {
  'POST /api/v1/account/applications/token': {
    summary: 'Take an application token',
    description:
      "Client credentials → a 900-second HS256 bearer token for the application's organization. Needs no token. An x-organization-id header may only name that organization.",
    errors: { 401: 'Unknown client id or wrong secret (invalid client credentials).' },
  },
  'POST /api/v1/account/applications/scoped-token': {
    summary: 'Take a scoped token for one workspace',
    description:
      'A 900-second token for one workspace of the organization (created when it does not exist). Here it reads only GET /account/applications/scoped-token/info.',
  },
  'POST /api/v1/account/applications/widget-token': {
    summary: 'Take a widget token for one workspace',
    description:
      'A 900-second token for one workspace, for a front end (allowed_origin); the workspace is created when missing. Here it reads only GET /account/applications/scoped-token/info.',
  },
  'GET /api/v1/account/applications/scoped-token/info': {
    summary: 'Read what a scoped token is for',
    description: 'The organization and workspace of the scoped or widget token sent as the bearer token.',
    errors: { 404: 'The workspace of the token was deleted since.' },
  },
  'GET /api/v1/integrations/definitions/sources': {
    summary: 'List connector definitions',
    description: 'The connector types this service offers; name filters by case-insensitive substring.',
  },
  'GET /api/v1/integrations/definitions/sources/:id': {
    summary: 'Get a connector definition',
    description: 'One connector type with the JSON Schema of its credentials and example questions.',
    errors: { 404: 'Unknown definition id.' },
  },
  'GET /api/v1/integrations/connectors': {
    summary: 'List the connectors of a workspace',
    description:
      'By workspace_name (or its deprecated names customer_name, external_user_id) or workspace_id, optionally of one definition. Not paginated.',
    errors: { 404: 'Unknown or deleted workspace.' },
  },
  'POST /api/v1/integrations/connectors': {
    summary: 'Create a connector',
    description:
      'In a workspace, of a type named by connector_type, definition_id or source_template_id. Credentials are stored and never returned.',
    errors: {
      404: 'Unknown workspace, definition, type or template.',
      422: 'None of connector_type, definition_id, source_template_id given (value_error).',
    },
  },
  'GET /api/v1/integrations/connectors/:id': {
    summary: 'Get a connector',
    description: 'The connector with its source template, replication_config and entities.',
    errors: { 404: NOT_FOUND_CONNECTOR },
  },
  'PUT /api/v1/integrations/connectors/:id': {
    summary: 'Update a connector',
    description: 'Changes name, replication_config or entities; null or absent fields stay as they are.',
    errors: { 404: NOT_FOUND_CONNECTOR },
  },
  'DELETE /api/v1/integrations/connectors/:id': {
    summary: 'Delete a connector',
    description: 'Removes the connector and all its data before answering 202 with a job id.',
    errors: { 404: NOT_FOUND_CONNECTOR },
  },
  'POST /api/v1/integrations/connectors/:id/execute': {
    summary: 'Execute an action',
    description:
      "The one endpoint that reads and acts through a connector: {entity, action, params}. params is validated against the action's schema (one request body variant per type, entity and action). Answers the envelope, or for download the file's bytes.",
    errors: {
      403: "The connector's workspace is inactive (workspace_inactive), or the token may not act here (forbidden).",
      404: `${NOT_FOUND_CONNECTOR} Also a record the action names that does not exist.`,
      409: 'context_store_not_ready, or a duplicate record (conflict).',
      422: 'idempotency_key_reused: the Idempotency-Key was used for a different request.',
    },
  },
  'GET /api/v1/integrations/connectors/:id/inspect': {
    summary: 'Inspect a connector',
    description: 'Identity, context store readiness per entity, the docs skill id and the action catalogue.',
    errors: { 404: NOT_FOUND_CONNECTOR },
  },
  'GET /api/v1/workspaces': {
    summary: 'List workspaces',
    description: 'Live workspaces, oldest first, paged by limit (1-100, default 20) and the next URL.',
  },
  'GET /api/v1/workspaces/stats': {
    summary: 'Count workspaces',
    description: 'Active, inactive and total live workspaces of the organization.',
  },
  'GET /api/v1/workspaces/:id': {
    summary: 'Get a workspace',
    description: 'One live workspace.',
    errors: { 404: 'Unknown or deleted workspace.' },
  },
  'PUT /api/v1/workspaces/:id': {
    summary: 'Update a workspace',
    description: 'Changes name, status or cache_enabled; an inactive workspace refuses execute.',
    errors: { 404: 'Unknown or deleted workspace.', 409: 'Another live workspace has that name.' },
  },
  'DELETE /api/v1/workspaces/:id': {
    summary: 'Delete a workspace',
    description: 'Soft delete: the workspace and its connectors disappear from lists and lookups.',
    errors: { 404: 'Unknown or deleted workspace.' },
  },
  'GET /api/v1/skills': {
    summary: 'List skills',
    description: 'Static guides and one skill per connector, paged by limit and next_cursor.',
  },
  'GET /api/v1/skills/search': {
    summary: 'Search skills',
    description: 'Skills each of whose query words starts a word of their id, title, summary or tags.',
  },
  'GET /api/v1/skills/docs': {
    summary: 'Read skill docs',
    description: 'Without section: the outline and guidance; with section: that section, as typed blocks.',
    errors: { 404: 'Unknown skill or section.' },
  },
  'GET /api/v1/openapi.json': {
    summary: 'This OpenAPI document',
    description: 'Built from the registered routes and the action schemas. Needs no token.',
  },
};
