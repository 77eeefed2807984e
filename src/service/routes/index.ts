import type { FastifyPluginAsync } from 'fastify';
import { connectorRoutes } from './connectors.js';
import { definitionRoutes } from './definitions.js';
import { executeRoutes } from './execute.js';
import { inspectRoutes } from './inspect.js';
import { openapiRoutes } from './openapi.js';
import { skillsRoutes } from './skills.js';
import { tokenRoutes } from './token.js';
import { workspaceRoutes } from './workspaces.js';

/**
 * Every route plugin, registered under /api/v1 by app.ts. Add a resource by adding one line.
 * A route that needs no bearer token says so with `config: {public: true}`.
 */
export const routes: FastifyPluginAsync[] = [
  tokenRoutes,
  definitionRoutes,
  connectorRoutes,
  workspaceRoutes,
  executeRoutes,
  inspectRoutes,
  skillsRoutes,
  openapiRoutes,
];
