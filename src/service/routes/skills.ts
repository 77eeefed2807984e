import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { checkOrganization } from '../auth/organization.js';
import { ServiceError } from '../core/errors.js';
import { listSkills, matchesQuery, pageSkills, SKILLS_LIMIT_DEFAULT, SKILLS_LIMIT_MAX } from '../skills/catalog.js';
import { skillDocs } from '../skills/docs.js';

const pagingQuery = {
  limit: {
    type: 'string',
    pattern: '^[0-9]{1,3}$',
    description: `Skills per page, 1 to ${SKILLS_LIMIT_MAX} (default ${SKILLS_LIMIT_DEFAULT}).`,
  },
  cursor: { type: 'string', minLength: 1, maxLength: 200, description: 'next_cursor of the previous page.' },
  workspace_id: {
    type: 'string',
    minLength: 1,
    maxLength: 100,
    description: 'Only connector skills of this workspace.',
  },
  organization_id: {
    type: 'string',
    minLength: 1,
    maxLength: 100,
    description: "The token's organization (another one is a 403); the organization always comes from the token.",
  },
} as const;

interface ListQuery {
  organization_id?: string;
  limit?: string;
  cursor?: string;
  workspace_id?: string;
  query?: string;
}

/** GET /skills, /skills/search and /skills/docs: generated usage guidance per connector, plus static guides. */
export const skillsRoutes: FastifyPluginAsync = async (app) => {
  const querySchema = (extra: Record<string, unknown>, required: string[] = []) => ({
    type: 'object',
    properties: { ...pagingQuery, ...extra },
    required,
    additionalProperties: false,
  });
  // organization_id may only name the token's organization, like the x-organization-id header.
  const orgOf = (request: FastifyRequest<{ Querystring: { organization_id?: string } }>) => {
    checkOrganization(request.query.organization_id, request.organizationId, 'query.organization_id');
    return request.organizationId;
  };
  // Query strings are text and the app's ajv does not coerce: limit is checked here.
  const coerceLimit = (q: ListQuery) => {
    const n = q.limit === undefined ? SKILLS_LIMIT_DEFAULT : Number(q.limit);
    if (!Number.isInteger(n) || n < 1 || n > SKILLS_LIMIT_MAX)
      throw new ServiceError(
        'H400_INVALID_LIMIT',
        { message: `limit must be between 1 and ${SKILLS_LIMIT_MAX}` },
        { field: 'query.limit' },
      );
    return n;
  };

  app.get<{ Querystring: ListQuery }>('/skills', { schema: { querystring: querySchema({}) } }, async (request) => {
    const all = await listSkills(app.service.store.db, app.service.types, orgOf(request), request.query.workspace_id);
    return pageSkills(all, coerceLimit(request.query), request.query.cursor, app.service.cursors);
  });

  app.get<{ Querystring: ListQuery }>(
    '/skills/search',
    {
      schema: {
        querystring: querySchema(
          {
            query: {
              type: 'string',
              minLength: 1,
              maxLength: 200,
              description: 'Words that must each start a word of the skill (id, title, summary, tags).',
            },
          },
          ['query'],
        ),
      },
    },
    async (request) => {
      const all = await listSkills(app.service.store.db, app.service.types, orgOf(request), request.query.workspace_id);
      return pageSkills(
        all.filter((s) => matchesQuery(s, request.query.query ?? '')),
        coerceLimit(request.query),
        request.query.cursor,
        app.service.cursors,
      );
    },
  );

  app.get<{ Querystring: { id: string; section?: string; organization_id?: string } }>(
    '/skills/docs',
    {
      schema: {
        querystring: {
          type: 'object',
          required: ['id'],
          additionalProperties: false,
          properties: {
            id: {
              type: 'string',
              minLength: 1,
              maxLength: 200,
              description:
                "The skill id, e.g. connector-source:<connector_id> (inspect's docs_skill_id) or agent:recipes.",
            },
            section: {
              type: 'string',
              minLength: 1,
              maxLength: 200,
              description:
                'A section id from the outline, e.g. actions.contacts.list; omit for the outline and guidance.',
            },
            workspace_id: pagingQuery.workspace_id,
            organization_id: pagingQuery.organization_id,
          },
        },
      },
    },
    async (request) =>
      skillDocs(app.service.store.db, app.service.types, orgOf(request), request.query.id, request.query.section),
  );
};
