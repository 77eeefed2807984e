import type { FastifyPluginAsync } from 'fastify';
import { checkOrganization, ORGANIZATION_HEADER_FIELD } from '../auth/organization.js';
import { signApplicationToken, signWorkspaceToken, TOKEN_TTL_SECONDS } from '../auth/tokens.js';
import { ServiceError } from '../core/errors.js';
import { authenticateApplication } from '../store/applications.js';
import { createWorkspace, findWorkspaceById, findWorkspaceByName } from '../store/workspaces.js';

const bodySchema = {
  type: 'object',
  required: ['client_id', 'client_secret'],
  properties: {
    client_id: { type: 'string', minLength: 1, maxLength: 200 },
    client_secret: { type: 'string', minLength: 1, maxLength: 500 },
  },
} as const;

const workspaceName = { type: 'string', minLength: 1, maxLength: 200 } as const;
// There is one region here: region_id is accepted and changes nothing.
const regionId = { type: ['string', 'null'], maxLength: 100 } as const;
const tags = { type: 'array', maxItems: 100, items: { type: 'string', maxLength: 200 } } as const;
const tagsMode = { type: 'string', enum: ['all', 'any'] } as const;

const scopedBody = {
  type: 'object',
  required: ['workspace_name'],
  properties: { workspace_name: workspaceName, region_id: regionId },
  additionalProperties: false,
} as const;

const widgetBody = {
  type: 'object',
  required: ['workspace_name', 'allowed_origin'],
  properties: {
    workspace_name: workspaceName,
    region_id: regionId,
    allowed_origin: { type: 'string', minLength: 1, maxLength: 500 },
    selected_source_template_tags: tags,
    selected_source_template_tags_mode: tagsMode,
    selected_connection_template_tags: tags,
    selected_connection_template_tags_mode: tagsMode,
  },
  additionalProperties: false,
} as const;

/**
 * POST /account/applications/token: client credentials → a 15-minute HS256 application token.
 * POST /account/applications/scoped-token and /widget-token (application token): a token for one
 * workspace (created when it does not exist yet). GET /account/applications/scoped-token/info (scoped or
 * widget token): which organization and workspace the token is for. Scoped and widget tokens are refused
 * (403) by every other endpoint here: docs/service.md says why.
 */
export const tokenRoutes: FastifyPluginAsync = async (app) => {
  app.post<{ Body: { client_id: string; client_secret: string } }>(
    '/account/applications/token',
    { schema: { body: bodySchema }, config: { public: true } },
    async (request) => {
      const { client_id, client_secret } = request.body;
      const organizationId = await authenticateApplication(app.service.store.db, client_id, client_secret);
      if (!organizationId) throw new ServiceError('H401', { message: 'invalid client credentials' });
      // An application belongs to one organization: the header may only name it.
      checkOrganization(request.headers['x-organization-id'], organizationId, ORGANIZATION_HEADER_FIELD);
      const access_token = await signApplicationToken(
        app.service.signingKey,
        { organizationId, clientId: client_id },
        app.service.now(),
      );
      return { access_token, token_type: 'bearer', expires_in: TOKEN_TTL_SECONDS, organization_id: organizationId };
    },
  );

  /** Signs a scoped or widget token for the named workspace of the caller's organization. */
  const workspaceToken = async (orgId: string, name: string, kind: 'scoped' | 'widget') => {
    const svc = app.service;
    const ws = await svc.store.transaction(
      async (trx) => (await findWorkspaceByName(trx, orgId, name)) ?? createWorkspace(trx, orgId, name, svc.now()),
    );
    const token = await signWorkspaceToken(
      svc.signingKey,
      { organizationId: orgId, workspaceId: ws.id, kind, clientId: `workspace:${ws.id}` },
      svc.now(),
    );
    return { token };
  };

  app.post<{ Body: { workspace_name: string } }>(
    '/account/applications/scoped-token',
    { schema: { body: scopedBody } },
    async (request) => workspaceToken(request.organizationId, request.body.workspace_name, 'scoped'),
  );

  app.post<{ Body: { workspace_name: string } }>(
    '/account/applications/widget-token',
    { schema: { body: widgetBody } },
    async (request) => workspaceToken(request.organizationId, request.body.workspace_name, 'widget'),
  );

  app.get(
    '/account/applications/scoped-token/info',
    { config: { tokenKinds: ['scoped', 'widget'] } },
    async (request) => {
      const ws = await findWorkspaceById(app.service.store.db, request.organizationId, request.tokenWorkspaceId ?? '');
      if (!ws)
        throw new ServiceError(
          'H404',
          { message: 'the workspace of this token no longer exists' },
          { field: 'header.authorization' },
        );
      return { organization_id: request.organizationId, workspace_id: ws.id, workspace_name: ws.name };
    },
  );
};
