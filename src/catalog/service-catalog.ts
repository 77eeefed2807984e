import { join } from 'node:path';
import { fetchOpenApiDocument } from '../client/index.js';
import { RecipeError } from '../errors/index.js';
import { catalogCacheFile, readCachedCatalog, touchCachedCatalog, writeCachedCatalog } from './cache.js';
import { embeddedCatalog } from './embedded.js';
import { catalogFromOpenApi } from './openapi.js';
import type { ConnectorCatalog } from './types.js';

// Not exported from catalog/index.ts: it loads the HTTP client, which `recipe validate` loads only when it
// fetches a catalog (--against, --online).

/** Where a fallback to the cached catalog, or to none, is told (a CLI's stderr, a worker's log). */
export type CatalogNote = (message: string) => void;

const toStderr: CatalogNote = (message) => process.stderr.write(`${message}\n`);

/**
 * The connector catalog a service publishes (its OpenAPI document, fetchOpenApiDocument), cached per service in
 * .recipe/catalogs/ with the document's ETag. The cached copy is asked about with If-None-Match, and used when
 * the service answers 304 (the document, 392 KB from the embedded service, is then neither sent nor parsed). When
 * the service cannot be reached the cached copy is used, with a note; without one, the error says why (C012
 * and friends: exit 3).
 */
export async function serviceCatalog(
  url: string,
  cwd: string | undefined = process.cwd(),
  note: CatalogNote = toStderr,
): Promise<ConnectorCatalog> {
  // Without a working directory (the library API) nothing is cached: files are written only where asked.
  const file = cwd === undefined ? undefined : catalogCacheFile(join(cwd, '.recipe'), url);
  const cached = file === undefined ? undefined : readCachedCatalog(file);
  try {
    const answer = await fetchOpenApiDocument(url, cached?.etag !== undefined ? { ifNoneMatch: cached.etag } : {});
    if (answer.notModified) {
      if (file !== undefined) touchCachedCatalog(file);
      return cached!.catalog; // 304 only answers the If-None-Match sent from it
    }
    const catalog = catalogFromOpenApi(answer.doc, url);
    if (file !== undefined) writeCachedCatalog(file, catalog, answer.etag);
    return catalog;
  } catch (err) {
    if (!cached || !(err instanceof RecipeError)) throw err;
    note(`${err.code} ${err.message}; using the catalog cached at ${cached.fetchedAt.toISOString()} (${file})`);
    return cached.catalog;
  }
}

/**
 * The catalog a run's connector calls are checked against before it starts, as `recipe validate` checks
 * them: the embedded types for the embedded service (no URL), else the catalog the service publishes (or
 * its cached copy). A service that publishes none (and none is cached) leaves the calls to the service's
 * own checks, with a note: a run is not refused for what its service does not say.
 */
export async function catalogForService(
  url: string | undefined,
  cwd: string | undefined = process.cwd(),
  note: CatalogNote = toStderr,
): Promise<ConnectorCatalog | undefined> {
  if (url === undefined) return embeddedCatalog();
  try {
    return await serviceCatalog(url, cwd, note);
  } catch (err) {
    note(`connector calls are not checked before the run (${(err as Error).message})`);
    return undefined;
  }
}
