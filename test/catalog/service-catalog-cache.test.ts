/**
 * The catalog a service publishes, cached in .recipe/catalogs/ with its document's ETag (src/catalog/cache.ts):
 * asked about with If-None-Match against the real embedded service, reused on its 304, read again when the
 * document changed, and an earlier release's cache file (the catalog alone) still read as a fallback.
 */
import { mkdtempSync, readdirSync, readFileSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  catalogCacheFile,
  readCachedCatalog,
  writeCachedCatalog,
  type ConnectorCatalog,
} from '../../src/catalog/index.js';
import { serviceCatalog } from '../../src/catalog/service-catalog.js';
import { startService, type RunningService } from '../../src/service/start.js';

let service: RunningService;
let dir: string;
let file: string;
/** The catalog as the service publishes it (read with no cache: no working directory). */
let full: ConnectorCatalog;

beforeAll(async () => {
  service = await startService({ logLevel: 'silent' });
  dir = mkdtempSync(join(tmpdir(), 'recipe-catalog-cache-'));
  file = catalogCacheFile(join(dir, '.recipe'), service.url);
  full = await serviceCatalog(service.url, undefined);
  expect(full.types.length).toBeGreaterThan(1);
});
afterAll(async () => service.close());

const etagOf = async (): Promise<string> =>
  (await fetch(`${service.url}/api/v1/openapi.json`, { method: 'HEAD' })).headers.get('etag')!;

describe('serviceCatalog and its cache', () => {
  it("keeps the document's ETag, and reuses the cached catalog while the service answers 304", async () => {
    expect(await serviceCatalog(service.url, dir, () => {})).toEqual(full);
    const cached = readCachedCatalog(file)!;
    expect(cached.etag).toBe(await etagOf());
    expect(cached.catalog).toEqual(full);

    // The cached copy is what a 304 returns: mark it so that it cannot be mistaken for a fresh read.
    const marked = { ...full, types: full.types.slice(0, 1) };
    writeCachedCatalog(file, marked, cached.etag);
    const old = new Date('2026-01-01T00:00:00Z');
    utimesSync(file, old, old);
    expect(await serviceCatalog(service.url, dir, () => {})).toEqual(marked);
    // confirmed now: a later fallback's note dates it from this answer
    expect(statSync(file).mtimeMs).toBeGreaterThan(old.getTime());
  });

  it('reads the document in full when its ETag changed, and rewrites the cache', async () => {
    writeCachedCatalog(file, { ...full, types: [] }, '"a-document-the-service-no-longer-has"');
    expect(await serviceCatalog(service.url, dir, () => {})).toEqual(full);
    expect(readCachedCatalog(file)).toMatchObject({ catalog: full, etag: await etagOf() });
  });

  it("reads an earlier release's cache file (the catalog alone) as a fallback, without an ETag", async () => {
    writeFileSync(file, `${JSON.stringify({ ...full, types: [] })}\n`);
    const earlier = readCachedCatalog(file)!;
    expect(earlier.catalog.types).toEqual([]);
    expect(earlier.etag).toBeUndefined();
    // no ETag to ask with: the document is read in full and the file rewritten in the new form
    expect(await serviceCatalog(service.url, dir, () => {})).toEqual(full);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toMatchObject({ etag: await etagOf(), catalog: full });
  });

  it('keeps the 32 most recently read or confirmed catalogs of a project', () => {
    const folder = join(dir, '.recipe', 'catalogs');
    for (let i = 0; i < 40; i++) {
      const old = join(folder, `127.0.0.1-${10_000 + i}-old.json`);
      writeFileSync(old, '{}\n');
      const at = new Date(Date.UTC(2026, 0, 1, 0, i)); // the higher i, the more recent
      utimesSync(old, at, at);
    }
    writeCachedCatalog(file, full, '"x"');
    const left = readdirSync(folder).sort();
    expect(left).toHaveLength(32);
    expect(left).toContain(file.split('/').pop());
    // the 31 most recent of the others stay: 9 through 39
    expect(left).not.toContain('127.0.0.1-10008-old.json');
    expect(left).toContain('127.0.0.1-10009-old.json');
  });
});
