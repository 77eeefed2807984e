import { createHash } from 'node:crypto';
import {
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  statSync,
  unlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join } from 'node:path';
import type { ConnectorCatalog } from './types.js';

/** Where catalogs read from services are kept: one file per service, under the project's .recipe/. */
export function catalogCacheFile(recipeDir: string, serviceUrl: string): string {
  const url = new URL(serviceUrl);
  const key = createHash('sha256').update(url.href.replace(/\/+$/, '')).digest('hex').slice(0, 12);
  return join(recipeDir, 'catalogs', `${url.hostname}-${url.port || url.protocol.replace(':', '')}-${key}.json`);
}

/**
 * How this code derives a catalog from a document (openapi.ts). A cached catalog is reused on a 304 only when
 * it was derived the same way: raise this when catalogFromOpenApi or ConnectorCatalog changes what it keeps.
 */
const DERIVATION = 1;

/** A catalog as cached: the document's ETag (when the service sent one) and how it was derived. */
interface CacheFile {
  readonly derivation: number;
  readonly etag?: string;
  readonly catalog: ConnectorCatalog;
}

/** A cached catalog, when its document was last read or confirmed, and the ETag to ask with. */
export interface CachedCatalog {
  readonly catalog: ConnectorCatalog;
  readonly fetchedAt: Date;
  /** Absent when the service sent none, or the catalog was derived by other code (then it is read in full). */
  readonly etag?: string;
}

/**
 * Writes a catalog to its cache file (atomically: a reader never sees half a file), with the ETag of the
 * document it was derived from.
 */
export function writeCachedCatalog(file: string, catalog: ConnectorCatalog, etag?: string): void {
  mkdirSync(join(file, '..'), { recursive: true });
  const tmp = `${file}.${process.pid}.tmp`;
  const content: CacheFile = { derivation: DERIVATION, ...(etag !== undefined && { etag }), catalog };
  writeFileSync(tmp, `${JSON.stringify(content)}\n`);
  renameSync(tmp, file);
  pruneCachedCatalogs(dirname(file));
}

/**
 * How many services' catalogs a project keeps. A service on a new port at each start (tests, `recipe serve
 * --port 0`) would otherwise add a ~100 KB file for ever.
 */
const KEEP = 32;

/** Removes all but the KEEP most recently read or confirmed catalogs of a cache folder (best effort). */
function pruneCachedCatalogs(folder: string): void {
  let names;
  try {
    names = readdirSync(folder).filter((n) => n.endsWith('.json'));
  } catch {
    return;
  }
  if (names.length <= KEEP) return;
  const dated = names.map((name) => {
    try {
      return { name, at: statSync(join(folder, name)).mtimeMs };
    } catch {
      return { name, at: -Infinity };
    }
  });
  dated.sort((a, b) => b.at - a.at);
  for (const { name } of dated.slice(KEEP)) {
    try {
      unlinkSync(join(folder, name));
    } catch {
      // removed by another run meanwhile, or read-only: the next write tries again
    }
  }
}

/**
 * Marks a cached catalog confirmed now (the service answered 304), so that its time says when it was last
 * known current. Best effort: a read-only folder keeps the older time.
 */
export function touchCachedCatalog(file: string): void {
  const now = new Date();
  try {
    utimesSync(file, now, now);
  } catch {
    // the time only dates a later fallback's note
  }
}

/**
 * The cached catalog, or undefined when there is none (or it is unreadable). A file of an earlier release
 * (the catalog alone) is still a fallback, with no ETag.
 */
export function readCachedCatalog(file: string): CachedCatalog | undefined {
  try {
    const parsed = JSON.parse(readFileSync(file, 'utf8')) as Partial<CacheFile> & Partial<ConnectorCatalog>;
    const fromFile = parsed.catalog !== undefined;
    const catalog = (fromFile ? parsed.catalog : parsed) as ConnectorCatalog;
    if (!Array.isArray(catalog.types) || typeof catalog.source !== 'string') return undefined;
    const etag = fromFile && parsed.derivation === DERIVATION ? parsed.etag : undefined;
    return { catalog, fetchedAt: statSync(file).mtime, ...(typeof etag === 'string' && { etag }) };
  } catch {
    return undefined;
  }
}
