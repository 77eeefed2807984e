import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** One built file of the web front end, held in memory. */
export interface Asset {
  readonly body: Buffer;
  readonly type: string;
}

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.map': 'application/json',
};

/**
 * Where `npm run build` puts the front end: dist/console/assets/, next to the compiled server. Run from
 * the sources (tests through vitest), the server still finds the built copy under dist/.
 */
export function defaultAssetsDir(): string {
  const here = path.dirname(fileURLToPath(import.meta.url));
  const beside = path.join(here, 'assets');
  if (existsSync(path.join(beside, 'index.html'))) return beside;
  return path.resolve(here, '../../dist/console/assets');
}

/** Reads every built asset once at start: a handful of small files, served from memory. */
export function loadAssets(dir: string): Map<string, Asset> {
  const assets = new Map<string, Asset>();
  if (!existsSync(dir)) return assets;
  for (const name of readdirSync(dir)) {
    const ext = path.extname(name);
    const type = Object.hasOwn(TYPES, ext) ? TYPES[ext] : undefined;
    if (type) assets.set(name, { body: readFileSync(path.join(dir, name)), type });
  }
  return assets;
}
