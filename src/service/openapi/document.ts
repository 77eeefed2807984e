import type { ConnectorType } from '../core/connector-type.js';
import { executeBodySchema } from './execute-variants.js';
import { envelopeSchema, errorBodySchema, responseSchemas } from './response-schemas.js';
import type { RegisteredRoute } from './route-table.js';

type Schema = Record<string, unknown>;

const EXECUTE = 'POST /api/v1/integrations/connectors/:id/execute';

/** Writes run at most once per key (src/service/idempotency/); clients discover the support here. */
const IDEMPOTENCY_KEY = {
  name: 'Idempotency-Key',
  in: 'header',
  required: false,
  schema: { type: 'string', minLength: 1, maxLength: 255 },
  description:
    'For write actions: the same key with the same request within 24 hours answers the first answer (same status and body, header Idempotent-Replayed: true) without writing again; with a different request, 422 idempotency_key_reused. Keys are per organization. Reads ignore it.',
};

/** The published contract's organization header, accepted on every operation (auth/organization.ts). */
const ORGANIZATION_HEADER = {
  name: 'x-organization-id',
  in: 'header',
  required: false,
  schema: { type: 'string', format: 'uuid' },
  description:
    "The organization to act for. A token acts for one organization here, so the header may only name the token's (another: 403).",
};

const errorResponse = (description: string) => ({
  description,
  content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
});

function toOpenApiPath(url: string): string {
  return url.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
}

function operationId(method: string, url: string): string {
  const words = url
    .replace(/^\/api\/v1\//, '')
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((w, i) => (i === 0 ? w : w[0]!.toUpperCase() + w.slice(1)));
  return method.toLowerCase() + words.map((w) => w[0]!.toUpperCase() + w.slice(1)).join('');
}

function parameters(route: RegisteredRoute): Schema[] {
  const out: Schema[] = [];
  const pathSchema = ((route.schema?.params as Schema | undefined)?.properties ?? {}) as Record<string, Schema>;
  for (const m of route.url.matchAll(/:([A-Za-z0-9_]+)/g)) {
    const name = m[1] as string;
    out.push({
      name,
      in: 'path',
      required: true,
      schema: pathSchema[name] ?? { type: 'string' },
      description: `The ${name} of the resource.`,
    });
  }
  const query = route.schema?.querystring as Schema | undefined;
  const required = (query?.required ?? []) as string[];
  for (const [name, schema] of Object.entries((query?.properties ?? {}) as Record<string, Schema>)) {
    out.push({
      name,
      in: 'query',
      required: required.includes(name),
      schema,
      ...(typeof schema.description === 'string' && { description: schema.description }),
    });
  }
  return out;
}

function operation(route: RegisteredRoute, types: readonly ConnectorType[]): Schema {
  const key = `${route.method} ${route.url}`;
  const ok = responseSchemas[key];
  const responses: Schema = {};
  if (key === EXECUTE) {
    responses['200'] = {
      description: 'The envelope, or for download the raw bytes with Content-Type and Content-Disposition.',
      content: {
        'application/json': { schema: envelopeSchema },
        'application/octet-stream': { schema: { type: 'string', contentMediaType: 'application/octet-stream' } },
      },
    };
  } else {
    responses[String(ok?.status ?? 200)] = {
      description: ok?.description ?? 'OK',
      content: { 'application/json': { schema: ok?.schema ?? { type: 'object' } } },
    };
  }
  responses['400'] = errorResponse('Invalid request (the errors name each field).');
  if (!route.public) responses['401'] = errorResponse('Missing, malformed, expired or forged bearer token.');
  if (route.url.includes(':') || key === EXECUTE || route.url.endsWith('/docs'))
    responses['404'] = errorResponse("Not found (also another organization's resource).");
  if (key === EXECUTE) {
    responses['403'] = errorResponse("The connector's workspace is inactive.");
    responses['409'] = errorResponse('Conflict, e.g. context_store_not_ready or a duplicate record.');
    responses['422'] = errorResponse('idempotency_key_reused: the Idempotency-Key was used for a different request.');
  }
  responses['429'] = errorResponse('Rate limited; retry after the Retry-After header (seconds).');
  responses['500'] = errorResponse('Internal error (no details leak).');
  const body = key === EXECUTE ? executeBodySchema(types) : (route.schema?.body as Schema | undefined);
  return {
    operationId: operationId(route.method, route.url),
    summary: ok?.description ?? key,
    tags: [route.url.replace(/^\/api\/v1\//, '').split('/')[0] ?? 'api'],
    ...(route.public && { security: [] }),
    parameters: [
      ...parameters(route),
      ...(key === EXECUTE ? [IDEMPOTENCY_KEY] : []),
      ...(route.url.endsWith('/openapi.json') ? [] : [ORGANIZATION_HEADER]),
    ],
    ...(body && { requestBody: { required: true, content: { 'application/json': { schema: body } } } }),
    responses,
  };
}

/** Builds the OpenAPI 3.1 document from the registered routes and the connector types' action schemas. */
export function buildOpenApiDocument(routes: readonly RegisteredRoute[], types: readonly ConnectorType[]): Schema {
  const paths: Record<string, Schema> = {};
  for (const route of routes) {
    if (!route.url.startsWith('/api/v1/')) continue;
    const path = toOpenApiPath(route.url);
    paths[path] = { ...(paths[path] ?? {}), [route.method.toLowerCase()]: operation(route, types) };
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Connector Data Access API (embedded service)',
      version: '1.0.0',
      description:
        "Connector catalog and lookup, inspect, skills docs and the single execute endpoint. Execute params are documented per connector type, entity and action in the request body's oneOf.",
    },
    servers: [{ url: '/' }],
    security: [{ bearer: [] }],
    paths,
    components: {
      securitySchemes: {
        bearer: {
          type: 'http',
          scheme: 'bearer',
          bearerFormat: 'JWT',
          description: 'Application token from POST /api/v1/account/applications/token.',
        },
      },
      schemas: { Error: errorBodySchema },
    },
  };
}
