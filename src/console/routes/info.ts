import type { FastifyPluginAsync } from 'fastify';
import type { ConsoleInfo } from '../api-types.js';
import type { ConsoleActions } from '../actions/console-actions.js';
import type { JournalAccess } from '../runs/journal-source.js';
import type { ServiceSource } from './service.js';

/** Why there is no fleet page: GET /api/fleet answers it too (K520). */
export const NO_FLEET = 'this console reads no fleet: start it with --redis or --postgres to see its workers and queue';

/** GET /api/info: what this console can show (the pages say what is missing and why). */
export const infoRoutes: FastifyPluginAsync<{
  version: string;
  service: ServiceSource | undefined;
  journal: JournalAccess;
  actions: ConsoleActions;
  csrfToken: string;
}> = async (app, opts) => {
  app.get('/api/info', async (): Promise<ConsoleInfo> => {
    const got = await opts.journal.get();
    return {
      version: opts.version,
      journal: {
        available: !('reason' in got),
        path: opts.journal.source.label,
        ...('reason' in got ? { reason: got.reason } : {}),
      },
      service: { label: opts.service?.label ?? 'none' },
      fleet: opts.actions.fleetStatus ? { available: true } : { available: false, reason: NO_FLEET },
      actions: {
        csrf_token: opts.csrfToken,
        cancel_unavailable: opts.actions.cancelUnavailable,
        redrive_unavailable: opts.actions.redriveUnavailable,
        schedules_unavailable: opts.actions.schedulesUnavailable,
        submit_unavailable: opts.actions.submitUnavailable,
      },
    };
  });
};
