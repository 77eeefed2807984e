import { join } from 'node:path';
import {
  catalogCacheFile,
  catalogFromOpenApi,
  readCachedCatalog,
  writeCachedCatalog,
  type ConnectorCatalog,
} from '../catalog/index.js';
import { fetchOpenApiDocument } from '../client/index.js';
import { RecipeError } from '../errors/index.js';

/**
 * The connector catalog a service publishes (its OpenAPI document, fetchOpenApiDocument), cached per service in
 * .recipe/catalogs/. When the service cannot be reached the cached copy is used, with a note on stderr;
 * without one, the error says why (C012 and friends: exit 3).
 */
export async function serviceCatalog(url: string, cwd: string = process.cwd()): Promise<ConnectorCatalog> {
  const file = catalogCacheFile(join(cwd, '.recipe'), url);
  try {
    const catalog = catalogFromOpenApi(await fetchOpenApiDocument(url), url);
    writeCachedCatalog(file, catalog);
    return catalog;
  } catch (err) {
    const cached = readCachedCatalog(file);
    if (!cached || !(err instanceof RecipeError)) throw err;
    process.stderr.write(
      `${err.code} ${err.message}; using the catalog cached at ${cached.fetchedAt.toISOString()} (${file})\n`,
    );
    return cached.catalog;
  }
}
