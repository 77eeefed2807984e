import type { FastifyInstance, RouteOptions } from 'fastify';

/** One registered route as the OpenAPI document needs it. */
export interface RegisteredRoute {
  method: string;
  url: string;
  schema: Record<string, unknown> | undefined;
  public: boolean;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Every route registered after installRouteTable (the OpenAPI document is built from it). */
    routeTable: RegisteredRoute[];
  }
}

/** Records every route registered from now on (call before registering routes). HEAD twins are skipped. */
export function installRouteTable(app: FastifyInstance): void {
  const table: RegisteredRoute[] = [];
  app.decorate('routeTable', table);
  app.addHook('onRoute', (r: RouteOptions) => {
    const methods = Array.isArray(r.method) ? r.method : [r.method];
    for (const method of methods) {
      if (method === 'HEAD') continue;
      const config = (r.config ?? {}) as { public?: boolean };
      table.push({
        method,
        url: r.url,
        schema: r.schema as Record<string, unknown> | undefined,
        public: config.public === true,
      });
    }
  });
}
