import type { FastifyPluginAsync } from 'fastify';
import type { RecipeGraph, RecipeSummary } from '../api-types.js';
import { ConsoleError } from '../errors.js';
import type { RecipeCatalog } from '../recipes.js';

/** GET /api/recipes (the recipe files under the console's folders) and /api/recipes/graph?ref= (one plan). */
export const recipeRoutes: FastifyPluginAsync<{ recipes: RecipeCatalog }> = async (app, { recipes }) => {
  app.get('/api/recipes', async (): Promise<{ folders: readonly string[]; recipes: RecipeSummary[] }> => ({
    folders: recipes.folders,
    recipes: await recipes.list(),
  }));

  app.get<{ Querystring: { ref: string } }>(
    '/api/recipes/graph',
    {
      schema: {
        querystring: {
          type: 'object',
          properties: { ref: { type: 'string', minLength: 1, maxLength: 1000 }, token: { type: 'string' } },
          required: ['ref'],
          additionalProperties: false,
        },
      },
    },
    async (request): Promise<RecipeGraph> => {
      const graph = await recipes.graph(request.query.ref);
      if (!graph)
        throw new ConsoleError('K404', {
          message: `no recipe ${request.query.ref} in the console's recipe folders (${recipes.folders.join(', ')})`,
        });
      return graph;
    },
  );
};
