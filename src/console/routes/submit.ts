import type { FastifyPluginAsync } from 'fastify';
import type { ConsoleActions } from '../actions/console-actions.js';
import type { SubmitAnswer } from '../api-types.js';
import { ConsoleError } from '../errors.js';
import type { RecipeCatalog } from '../recipes.js';
import { act, auditAction, type AuditLog } from './actions.js';

/** A submit's inputs are a JSON object of this size at most (the console's other requests: 1 KiB). */
const SUBMIT_BODY_LIMIT = 64 * 1024;

/**
 * POST /api/runs {recipe, inputs}: `recipe submit` from a recipe page. The recipe is a ref inside the console's
 * recipe folders; it and its inputs are checked as submit checks them (422 naming file, line and input), then
 * queued for the workers (202 with the run id and its page). Access and CSRF proofs are checked before this
 * runs (access.ts, csrf.ts), as for every action; it writes one audit line.
 */
export const submitRoutes: FastifyPluginAsync<{
  actions: ConsoleActions;
  audit: AuditLog;
  hasToken: boolean;
  recipes: RecipeCatalog;
}> = async (app, { actions, audit, hasToken, recipes }) => {
  app.post<{ Body: { recipe: string; inputs?: Record<string, unknown> } }>(
    '/api/runs',
    {
      bodyLimit: SUBMIT_BODY_LIMIT,
      schema: {
        body: {
          type: 'object',
          required: ['recipe'],
          properties: { recipe: { type: 'string', minLength: 1, maxLength: 1000 }, inputs: { type: 'object' } },
          additionalProperties: false,
        },
      },
    },
    async (request, reply): Promise<SubmitAnswer> => {
      const ref = request.body.recipe;
      if (actions.submitUnavailable !== null) throw new ConsoleError('K506', { message: actions.submitUnavailable });
      const file = recipes.fileOf(ref);
      if (file === undefined)
        throw new ConsoleError('K531', {
          message: `recipe ${ref.slice(0, 200)}: not a recipe file (.yaml) inside the console's recipe folders (${recipes.folders.join(', ')})`,
        });
      const outcome = await act(() => actions.submit(file, request.body.inputs ?? {}));
      if ('problems' in outcome) throw new ConsoleError('K530', { message: outcome.problems.join('\n') });
      auditAction(audit, hasToken, request, `submit ${outcome.recipe} as run ${outcome.run_id}`);
      void reply.status(202);
      return { run_id: outcome.run_id, recipe: outcome.recipe, link: `/runs/${encodeURIComponent(outcome.run_id)}` };
    },
  );
};
