import type { ConnectorType } from '../core/connector-type.js';
import { executeBodySchema, resultSchemas, type ResultSchemas } from './execute-variants.js';
import { envelopeSchema, errorBodySchema, responseSchemas } from './response-schemas.js';
import { operationDocs } from './operation-docs.js';
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

const RETRY_AFTER = {
  'Retry-After': {
    description: 'Whole seconds to wait before the next request (at least 1).',
    schema: { type: 'integer', minimum: 1 },
  },
};

/** The document's validator (routes/openapi.ts): a client that keeps the document sends it back. */
const ETAG_HEADER = {
  ETag: {
    description: 'The validator of this version of the document: send it back as If-None-Match.',
    schema: { type: 'string' },
  },
};
const IF_NONE_MATCH = {
  name: 'If-None-Match',
  in: 'header',
  required: false,
  schema: { type: 'string' },
  description: 'The ETag of a copy the client keeps: answered 304 with no body while the document is the same.',
};

/** Sent on every answer of a route behind the token when the service runs with --rate-limit. */
const RATE_LIMIT_HEADERS = {
  'RateLimit-Limit': {
    description: 'With --rate-limit: requests per second the token may send (the bucket size).',
    schema: { type: 'integer', minimum: 1 },
  },
  'RateLimit-Remaining': {
    description: 'With --rate-limit: requests the token may still send at once.',
    schema: { type: 'integer', minimum: 0 },
  },
  'RateLimit-Reset': {
    description: 'With --rate-limit: seconds until the budget is whole again.',
    schema: { type: 'integer', minimum: 0 },
  },
  'RateLimit-Policy': {
    description: 'With --rate-limit: the policy, `<limit>;w=1` (that many requests per 1-second window).',
    schema: { type: 'string' },
  },
};

const EXECUTE_HEADERS = {
  'Idempotent-Replayed': {
    description:
      'Only on a write sent with an Idempotency-Key: true when this is the stored answer of an earlier request with that key.',
    schema: { type: 'string', enum: ['true', 'false'] },
  },
  'Content-Disposition': {
    description: 'Only on a download: attachment; filename="<the file\'s name>".',
    schema: { type: 'string' },
  },
};

/** The success answer of an operation: execute's envelope or bytes, or the route's response schema. */
/** The envelope, with `result` as any of the actions' result schemas (which one: the request's entity and action). */
function executeEnvelope(results: ResultSchemas): Schema {
  const properties = envelopeSchema.properties as Record<string, Schema>;
  const refs = Object.keys(results.components).map((name) => ({ $ref: `#/components/schemas/${name}` }));
  return {
    ...envelopeSchema,
    properties: { ...properties, result: { ...properties.result, ...(refs.length > 0 && { anyOf: refs }) } },
  };
}

function successResponse(key: string, results: ResultSchemas): [string, Schema] {
  const ok = responseSchemas[key];
  if (key === EXECUTE)
    return [
      '200',
      {
        description:
          "The envelope; for a download, the file's bytes with the file's own media type (Content-Type: its contentType, e.g. text/plain; charset=utf-8, application/pdf, image/png) and Content-Disposition.",
        headers: EXECUTE_HEADERS,
        content: {
          'application/json': { schema: executeEnvelope(results) },
          '*/*': { schema: { type: 'string', contentMediaType: 'application/octet-stream' } },
        },
      },
    ];
  return [
    String(ok?.status ?? 200),
    {
      description: ok?.description ?? 'OK',
      content: { 'application/json': { schema: ok?.schema ?? { type: 'object' } } },
    },
  ];
}

/** Every status an operation answers: its success, the common errors by what the route takes, and its own. */
function responsesOf(route: RegisteredRoute, key: string, hasBody: boolean, results: ResultSchemas): Schema {
  const [status, success] = successResponse(key, results);
  const own = operationDocs[key]?.errors ?? {};
  const isDocument = route.url.endsWith('/openapi.json');
  const errors: Record<number, Schema> = {};
  if (!isDocument) errors[400] = errorResponse('Invalid request (the errors name each field).');
  if (!route.public) errors[401] = errorResponse('Missing, malformed, expired or forged bearer token.');
  if (!isDocument)
    errors[403] = errorResponse(
      "x-organization-id names another organization than the token's, or the token's kind may not use this endpoint (forbidden).",
    );
  if (hasBody) {
    errors[413] = errorResponse('The body is larger than the limit (1 MiB by default).');
    errors[415] = errorResponse('The body is not application/json.');
  }
  for (const [code, description] of Object.entries(own)) errors[Number(code)] = errorResponse(description);
  if (!route.public)
    errors[429] = {
      ...errorResponse('Rate limited (--rate-limit); retry after Retry-After seconds.'),
      headers: { ...RETRY_AFTER, ...RATE_LIMIT_HEADERS },
    };
  // Node's HTTP parser answers 431 before any route runs, so every operation (the document's too) may send it.
  errors[431] = errorResponse('The request headers are larger than the server accepts.');
  errors[500] = errorResponse('Internal error (no details leak).');
  const limited = route.public
    ? success
    : { ...success, headers: { ...(success.headers as Schema), ...RATE_LIMIT_HEADERS } };
  const responses: Schema = isDocument
    ? {
        [status]: { ...success, headers: ETAG_HEADER },
        '304': { description: 'Not modified: If-None-Match names the current ETag (no body).', headers: ETAG_HEADER },
      }
    : { [status]: limited };
  for (const code of Object.keys(errors).sort()) responses[code] = errors[Number(code)];
  return responses;
}

function operation(route: RegisteredRoute, types: readonly ConnectorType[], results: ResultSchemas): Schema {
  const key = `${route.method} ${route.url}`;
  const docs = operationDocs[key];
  const body = key === EXECUTE ? executeBodySchema(types, results) : (route.schema?.body as Schema | undefined);
  return {
    operationId: operationId(route.method, route.url),
    summary: docs?.summary ?? key,
    description: docs?.description ?? responseSchemas[key]?.description ?? key,
    tags: [tagOf(route.url)],
    ...(route.public && { security: [] }),
    parameters: [
      ...parameters(route),
      ...(key === EXECUTE ? [IDEMPOTENCY_KEY] : []),
      ...(route.url.endsWith('/openapi.json') ? [IF_NONE_MATCH] : [ORGANIZATION_HEADER]),
    ],
    ...(body && { requestBody: { required: true, content: { 'application/json': { schema: body } } } }),
    responses: responsesOf(route, key, body !== undefined, results),
  };
}

/** An operation's tag: the first segment of its path after /api/v1/ (account, integrations, workspaces, ...). */
function tagOf(url: string): string {
  return url.replace(/^\/api\/v1\//, '').split('/')[0] ?? 'api';
}

const tagDescriptions: ReadonlyMap<string, string> = new Map([
  ['account', 'Application tokens: the bearer token every other operation needs, scoped and widget tokens.'],
  ['integrations', 'Connector definitions, connectors (create, read, update, delete), inspect and execute.'],
  ['workspaces', 'Workspaces that group connectors, and their statistics.'],
  ['skills', 'Documentation of the connectors, as an outline, sections and a search.'],
  ['openapi.json', 'This document.'],
]);

/** The document's global tags: one per first path segment, in the order the routes were registered. */
function tagsOf(routes: readonly RegisteredRoute[]): Schema[] {
  const names = [...new Set(routes.filter((r) => r.url.startsWith('/api/v1/')).map((r) => tagOf(r.url)))];
  return names.map((name) => ({ name, description: tagDescriptions.get(name) ?? name }));
}

/** Builds the OpenAPI 3.1 document from the registered routes and the connector types' action schemas. */
export function buildOpenApiDocument(routes: readonly RegisteredRoute[], types: readonly ConnectorType[]): Schema {
  const paths: Record<string, Schema> = {};
  const results = resultSchemas(types);
  for (const route of routes) {
    if (!route.url.startsWith('/api/v1/')) continue;
    const path = toOpenApiPath(route.url);
    paths[path] = { ...(paths[path] ?? {}), [route.method.toLowerCase()]: operation(route, types, results) };
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Connector Data Access API (embedded service)',
      version: '1.0.0',
      contact: { name: 'The recipe project: see its README.md and docs/service.md' },
      license: { name: 'MIT', identifier: 'MIT' },
      description:
        "Connector catalog and lookup, inspect, skills docs and the single execute endpoint. Execute params are documented per connector type, entity and action in the request body's oneOf.",
    },
    servers: [{ url: '/' }],
    tags: tagsOf(routes),
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
      schemas: { Error: errorBodySchema, ...results.components },
    },
  };
}
