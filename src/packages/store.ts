import { existsSync, mkdirSync, mkdtempSync, renameSync, rmSync } from 'node:fs';
import { homedir } from 'node:os';
import path from 'node:path';
import { hashDir } from './dirhash.js';
import { extractTar } from './tar.js';

/**
 * The content-addressed store of fetched packages: `<root>/pkgs/<hash>/` holds the files whose h1 hash is
 * <hash> (base64url). `RECIPE_STORE` moves it; otherwise it lives in the user's cache directory
 * ($XDG_CACHE_HOME/recipe/store, ~/.cache/recipe/store).
 */
export function storeRoot(env: NodeJS.ProcessEnv = process.env): string {
  if (env.RECIPE_STORE) return path.resolve(env.RECIPE_STORE);
  const cache = env.XDG_CACHE_HOME ? path.resolve(env.XDG_CACHE_HOME) : path.join(homedir(), '.cache');
  return path.join(cache, 'recipe', 'store');
}

/** The folder of a package with this h1 hash in the store (present or not). */
export function storePath(root: string, hash: string): string {
  const id = hash.replace(/^h1:/, '').replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
  return path.join(root, 'pkgs', id);
}

/**
 * Puts the files of a tar archive into the store and gives their hash. Extracted beside the store and
 * renamed into place, so a reader never sees half a package; an existing copy with the same hash is kept.
 */
export function putArchive(root: string, tar: Buffer, strip = 0): { hash: string; dir: string } {
  mkdirSync(path.join(root, 'tmp'), { recursive: true });
  const tmp = mkdtempSync(path.join(root, 'tmp', 'pkg-'));
  try {
    extractTar(tar, tmp, strip);
    const hash = hashDir(tmp);
    const dir = storePath(root, hash);
    if (!existsSync(dir)) {
      mkdirSync(path.dirname(dir), { recursive: true });
      renameSync(tmp, dir);
    }
    return { hash, dir };
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}
