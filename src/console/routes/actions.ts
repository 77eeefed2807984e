import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { RecipeError } from '../../errors/index.js';
import type { ActionAnswer, CancelAnswer, ScheduleView } from '../api-types.js';
import type { ConsoleActions } from '../actions/console-actions.js';
import { ConsoleError } from '../errors.js';

/** A run id as the journal accepts them, and a schedule name as `recipe schedule add` does. */
const NAME = { type: 'string', pattern: '^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$' } as const;
/** A reason is a line for `runs show` and the report, as `recipe cancel --reason`. */
const MAX_REASON = 500;

/** Who acted, for the audit line: the peer address, and whether the console's token let it in. */
export type AuditLog = (line: string) => void;

/**
 * The console's actions: POST /api/runs/:id/cancel {reason?}, POST /api/runs/:id/redrive {allow_changed?,
 * retry_failed_items?}, GET /api/schedules, POST /api/schedules/:name/pause and /resume. Access and CSRF
 * proofs are checked before a route runs (access.ts, csrf.ts); each action writes one audit line.
 */
export const actionRoutes: FastifyPluginAsync<{ actions: ConsoleActions; audit: AuditLog; hasToken: boolean }> = async (
  app,
  { actions, audit, hasToken },
) => {
  const note = (request: FastifyRequest, what: string): void => auditAction(audit, hasToken, request, what);

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

/** Writes an action's audit line: when, what, and who (the peer address, and whether the console's token let it in). */
export function auditAction(audit: AuditLog, hasToken: boolean, request: FastifyRequest, what: string): void {
  const who = `${request.ip}${hasToken ? ' (with the console token)' : ' (loopback)'}`;
  audit(`${new Date().toISOString()} console action: ${what} by ${who}`);
}

/** Runs an action; the refusals of the journal and the fleet become the console's K codes (never a 500). */
export async function act<T>(fn: () => Promise<T>): Promise<T> {
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
