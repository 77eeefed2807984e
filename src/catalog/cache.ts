import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ConnectorCatalog } from './types.js';

/** Where catalogs read from services are kept: one file per service, under the project's .recipe/. */
export function catalogCacheFile(recipeDir: string, serviceUrl: string): string {
  const url = new URL(serviceUrl);
  const key = createHash('sha256').update(url.href.replace(/\/+$/, '')).digest('hex').slice(0, 12);
  return join(recipeDir, 'catalogs', `${url.hostname}-${url.port || url.protocol.replace(':', '')}-${key}.json`);
}

/** Writes a catalog to its cache file (atomically: a reader never sees half a file). */
export function writeCachedCatalog(file: string, catalog: ConnectorCatalog): void {
  mkdirSync(join(file, '..'), { recursive: true });
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, `${JSON.stringify(catalog)}\n`);
  renameSync(tmp, file);
}

/** The cached catalog and when it was fetched, or undefined when there is none (or it is unreadable). */
export function readCachedCatalog(file: string): { catalog: ConnectorCatalog; fetchedAt: Date } | undefined {
  try {
    const catalog = JSON.parse(readFileSync(file, 'utf8')) as ConnectorCatalog;
    if (!Array.isArray(catalog.types) || typeof catalog.source !== 'string') return undefined;
    return { catalog, fetchedAt: statSync(file).mtime };
  } catch {
    return undefined;
  }
}
