import type { FastifyPluginAsync } from 'fastify';
import type { ConsoleInfo } from '../api-types.js';
import type { ServiceSource } from './service.js';

/** GET /api/info: what this console can show (the pages say what is missing and why). */
export const infoRoutes: FastifyPluginAsync<{ version: string; service: ServiceSource | undefined }> = async (
  app,
  opts,
) => {
  app.get('/api/info', async (): Promise<ConsoleInfo> => ({
    version: opts.version,
    journal: { available: false, reason: 'this build of recipe has no run journal yet (issue 9)' },
    service: { label: opts.service?.label ?? 'none' },
    fleet: { available: false, reason: 'this build of recipe has no fleet (issue 15)' },
  }));
};
