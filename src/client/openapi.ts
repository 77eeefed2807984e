import { RecipeError } from '../errors/index.js';
import { HttpTransport, TransportError } from './http.js';
import { asObject } from './envelope.js';
import { apiUrl, isExecuteTemplate, openapiPath } from './routes.js';

/** The service's OpenAPI document and its ETag (when it sends one), or `notModified` (answered 304). */
export type OpenApiAnswer =
  | { readonly notModified: false; readonly doc: Record<string, unknown>; readonly etag?: string }
  | { readonly notModified: true };

/**
 * GET <base>/api/v1/openapi.json (routes.ts): the service's OpenAPI document (public, no token), whose execute body
 * lists every connector type's entities, actions and params schemas. One exchange, no retry: `recipe
 * validate --against` falls back to its cached copy when the service cannot be reached. With `ifNoneMatch`
 * (the ETag of a kept copy) a service that still has that document answers 304 with no body.
 * Throws C012 when the service cannot be reached, C010 when the answer is not a JSON document.
 */
export async function fetchOpenApiDocument(
  baseUrl: string,
  opts: { timeoutMs?: number; signal?: AbortSignal; ifNoneMatch?: string } = {},
): Promise<OpenApiAnswer> {
  const base = new URL(baseUrl.endsWith('/') ? baseUrl : `${baseUrl}/`);
  const url = apiUrl(base, openapiPath());
  const transport = new HttpTransport();
  try {
    const res = await transport.send({
      method: 'GET',
      url,
      headers: {
        accept: 'application/json',
        'user-agent': 'recipe',
        ...(opts.ifNoneMatch !== undefined && { 'if-none-match': opts.ifNoneMatch }),
      },
      timeoutMs: opts.timeoutMs ?? 10_000,
      ...(opts.signal ? { signal: opts.signal } : {}),
    });
    if (res.status === 304 && opts.ifNoneMatch !== undefined) return { notModified: true };
    if (res.status !== 200)
      throw new RecipeError('C010', {
        entity: 'openapi',
        action: 'get',
        reason: `HTTP ${res.status} from ${url.href}`,
      });
    const doc: unknown = JSON.parse(res.body.toString('utf8'));
    if (doc === null || typeof doc !== 'object' || Array.isArray(doc))
      throw new RecipeError('C010', { entity: 'openapi', action: 'get', reason: 'the answer is not a JSON object' });
    const etag = res.headers.etag;
    return { notModified: false, doc: doc as Record<string, unknown>, ...(etag !== undefined && { etag }) };
  } catch (err) {
    if (err instanceof TransportError) throw new RecipeError('C012', { origin: base.origin, reason: err.reason });
    if (err instanceof SyntaxError)
      throw new RecipeError('C010', { entity: 'openapi', action: 'get', reason: 'the answer is not JSON' });
    throw err;
  } finally {
    await transport.close();
  }
}

/** True when an OpenAPI document declares an Idempotency-Key header on POST .../connectors/{id}/execute. */
export function declaresIdempotencyKey(doc: unknown): boolean {
  const paths = asObject(asObject(doc).paths);
  const execute = Object.entries(paths).find(([path]) => isExecuteTemplate(path))?.[1];
  const params = asObject(asObject(execute).post).parameters;
  return (
    Array.isArray(params) &&
    params.some((p) => {
      const o = asObject(p);
      return o.in === 'header' && typeof o.name === 'string' && o.name.toLowerCase() === 'idempotency-key';
    })
  );
}
