import type { FastifyPluginAsync } from 'fastify';
import { RecipeError } from '../../errors/index.js';
import type { ConsoleActions } from '../actions/console-actions.js';
import type { FleetView } from '../api-types.js';
import { ConsoleError } from '../errors.js';
import { NO_FLEET } from './info.js';

/**
 * GET /api/fleet: the fleet page's read, what `recipe fleet status --json` prints (workers and the runs they
 * hold, job counts, schedules, leases, chunks). Read-only, so the GET rules of access.ts apply (the token off
 * loopback). A console of a journal file has no fleet, and a fleet whose store does not answer is not an
 * internal error: both are fleet_unavailable (503), as the schedules' failures are (K511).
 */
export const fleetRoutes: FastifyPluginAsync<{ actions: ConsoleActions }> = async (app, { actions }) => {
  app.get('/api/fleet', async (): Promise<FleetView> => {
    if (!actions.fleetStatus) throw new ConsoleError('K520', { message: NO_FLEET });
    try {
      return await actions.fleetStatus();
    } catch (err) {
      if (err instanceof ConsoleError) throw err;
      if (err instanceof RecipeError) throw new ConsoleError('K511', { code: err.code, message: err.message });
      // A store's own error (a refused connection): its text names host and port, never the URL's password.
      throw new ConsoleError('K520', { message: `the fleet's store did not answer: ${(err as Error).message}` });
    }
  });
};
