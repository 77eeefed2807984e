import 'fastify';
import type { ServiceContext } from '../core/service-context.js';

// What the service adds to Fastify's types: the shared context, the caller's organization, public routes.
declare module 'fastify' {
  interface FastifyInstance {
    service: ServiceContext;
  }
  interface FastifyRequest {
    /** Set by the auth hook on every authenticated route. */
    organizationId: string;
  }
  interface FastifyContextConfig {
    /** Route needs no bearer token (the token route, the OpenAPI document). */
    public?: boolean;
  }
}
