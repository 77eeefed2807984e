import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { RecipeError } from '../../errors/index.js';
import type { ActionAnswer, CancelAnswer, ScheduleView, SubmitAnswer } from '../api-types.js';
import type { ConsoleActions } from '../actions/console-actions.js';
import { ConsoleError } from '../errors.js';
import type { RecipeCatalog } from '../recipes.js';

/** A run id as the journal accepts them, and a schedule name as `recipe schedule add` does. */
const NAME = { type: 'string', pattern: '^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$' } as const;
/** A reason is a line for `runs show` and the report, as `recipe cancel --reason`. */
const MAX_REASON = 500;

/** A submit's inputs are a JSON object of this size at most (the console's other requests: 1 KiB). */
const SUBMIT_BODY_LIMIT = 64 * 1024;

/** Who acted, for the audit line: the peer address, and whether the console's token let it in. */
export type AuditLog = (line: string) => void;

/**
 * The console's actions: POST /api/runs/:id/cancel {reason?}, POST /api/runs/:id/redrive {allow_changed?,
 * retry_failed_items?}, GET /api/schedules, POST /api/schedules/:name/pause and /resume. Access and CSRF
 * proofs are checked before a route runs (access.ts, csrf.ts); each action writes one audit line.
 */
export const actionRoutes: FastifyPluginAsync<{
  actions: ConsoleActions;
  audit: AuditLog;
  hasToken: boolean;
  recipes: RecipeCatalog;
}> = async (app, { actions, audit, hasToken, recipes }) => {
  const who = (request: FastifyRequest): string =>
    `${request.ip}${hasToken ? ' (with the console token)' : ' (loopback)'}`;
  const note = (request: FastifyRequest, what: string): void =>
    audit(`${new Date().toISOString()} console action: ${what} by ${who(request)}`);

  app.post<{ Params: { id: string }; Body: { reason?: string } }>(
    '/api/runs/:id/cancel',
    {
      schema: {
        params: { type: 'object', properties: { id: NAME } },
        body: {
          type: 'object',
          properties: { reason: { type: 'string', maxLength: MAX_REASON * 2 } },
          additionalProperties: false,
        },
      },
    },
    async (request): Promise<CancelAnswer> => {
      const text = request.body.reason?.trim().replace(/\s+/g, ' ') ?? '';
      if (text.length > MAX_REASON)
        throw new ConsoleError('K400', { message: `reason: one line of at most ${MAX_REASON} characters` });
      const reason = text === '' ? null : text;
      const runId = request.params.id;
      const asked = await act(() => actions.cancel(runId, reason));
      note(request, `cancel run ${runId}${reason ? ` (reason: ${reason})` : ''}`);
      return {
        run_id: runId,
        attempt: asked.attempt,
        reason: asked.reason,
        requested_at: new Date(asked.requested_at).toISOString(),
      };
    },
  );

  app.post<{ Params: { id: string }; Body: { allow_changed?: boolean; retry_failed_items?: boolean } }>(
    '/api/runs/:id/redrive',
    {
      schema: {
        params: { type: 'object', properties: { id: NAME } },
        body: {
          type: 'object',
          properties: { allow_changed: { type: 'boolean' }, retry_failed_items: { type: 'boolean' } },
          additionalProperties: false,
        },
      },
    },
    async (request): Promise<ActionAnswer> => {
      const runId = request.params.id;
      const options = {
        allow_changed: request.body.allow_changed === true,
        retry_failed_items: request.body.retry_failed_items === true,
      };
      await act(() => actions.redrive(runId, options));
      const flags = [
        ...(options.allow_changed ? ['--allow-changed'] : []),
        ...(options.retry_failed_items ? ['--retry-failed-items'] : []),
      ];
      note(request, `redrive run ${runId}${flags.length > 0 ? ` ${flags.join(' ')}` : ''}`);
      return { ok: true, message: `run ${runId} queued for the workers to resume` };
    },
  );

  // `recipe submit` from a recipe page: the recipe (a ref inside the console's recipe folders) and its inputs,
  // checked as submit checks them (422 naming the file, line and field), then queued for the workers (202).
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
      if ('diagnostics' in outcome)
        throw new ConsoleError('K530', {
          message: outcome.diagnostics.map((d) => `${d.file}:${d.line}:${d.column}: ${d.code} ${d.message}`).join('\n'),
        });
      note(request, `submit ${outcome.recipe} as run ${outcome.run_id}`);
      void reply.status(202);
      return {
        run_id: outcome.run_id,
        recipe: outcome.recipe,
        link: `/runs/${encodeURIComponent(outcome.run_id)}`,
      };
    },
  );

  app.get('/api/schedules', async (): Promise<{ schedules: ScheduleView[]; source: string }> => ({
    schedules: await act(() => actions.listSchedules()),
    source: actions.label,
  }));

  for (const verb of ['pause', 'resume'] as const) {
    app.post<{ Params: { name: string } }>(
      `/api/schedules/:name/${verb}`,
      { schema: { params: { type: 'object', properties: { name: NAME } } } },
      async (request): Promise<ActionAnswer> => {
        const name = request.params.name;
        await act(() => (verb === 'pause' ? actions.pauseSchedule(name) : actions.resumeSchedule(name)));
        note(request, `${verb} schedule ${name}`);
        return {
          ok: true,
          message:
            verb === 'pause'
              ? `schedule ${name} paused: no ticks until it is resumed`
              : `schedule ${name} resumed: its next tick is the next one from now`,
        };
      },
    );
  }
};

/** Runs an action; the refusals of the journal and the fleet become the console's K codes (never a 500). */
async function act<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    if (!(err instanceof RecipeError)) throw err;
    const params = { code: err.code, message: err.message };
    switch (err.code) {
      case 'J020':
        throw new ConsoleError('K507', params);
      case 'F022':
        throw new ConsoleError('K508', params);
      case 'J001':
      case 'F007':
      case 'F005':
        throw new ConsoleError('K509', params);
      case 'F023':
        throw new ConsoleError('K510', params);
      case 'F002':
        throw new ConsoleError('K531', params);
      default:
        throw new ConsoleError('K511', params);
    }
  }
}
