import type { FastifyPluginAsync } from 'fastify';
import type { ServiceView } from '../api-types.js';
import { readServiceView, type ServiceReader } from '../service-view.js';

/** The connector service behind the service page: opened on first use (the embedded one starts only then). */
export interface ServiceSource {
  /** A URL, or "embedded (.recipe/local.db)". Never a credential. */
  readonly label: string;
  open(): Promise<ServiceReader>;
  close?(): Promise<void>;
}

/** GET /api/service: workspaces, their connectors and context store readiness, read live from the service. */
export const serviceRoutes: FastifyPluginAsync<{ service: ServiceSource | undefined }> = async (app, { service }) => {
  let reader: Promise<ServiceReader> | undefined;
  app.get('/api/service', async (): Promise<ServiceView> => {
    if (!service) return { label: 'none', workspaces: [], error: 'no connector service configured' };
    try {
      reader ??= service.open();
      return await readServiceView(await reader, service.label, AbortSignal.timeout(15_000));
    } catch (err) {
      // A failed start is tried again on the next visit (the service may come up later).
      reader = undefined;
      return { label: service.label, workspaces: [], error: (err as Error).message };
    }
  });
};
