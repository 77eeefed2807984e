import { existsSync, realpathSync } from 'node:fs';
import path from 'node:path';
import { RecipeError } from '../errors/index.js';
import { hashDir } from './dirhash.js';
import { findLock, readLock, vendorName, type LockFile, type LockedPackage } from './lock.js';
import { packageKey, type PackageSource } from './source.js';
import { storePath, storeRoot } from './store.js';

/** Where a run finds packages: the lock, its folder, the vendor folder and the store. Offline: never fetches. */
export interface PackageContext {
  readonly lockFile: string;
  readonly lock: LockFile;
  readonly store: string;
  /** Folders already hashed and found matching, so a package called from many files is hashed once. */
  readonly verified: Map<string, string>;
}

/** A package found: its key, its root folder (real path), its lock entry. */
export interface LocatedPackage {
  readonly key: string;
  readonly root: string;
  readonly entry: LockedPackage;
  /** The called recipe file inside it. */
  readonly file: string;
}

/** Opens the lock that governs a recipe file's calls (undefined when there is none). */
export function openPackageContext(
  recipeDir: string,
  env: NodeJS.ProcessEnv = process.env,
): PackageContext | undefined {
  const lockFile = findLock(recipeDir);
  if (!lockFile) return undefined;
  return { lockFile, lock: readLock(lockFile), store: storeRoot(env), verified: new Map() };
}

/**
 * The folder holding a locked package: the vendor copy when there is one, else the store's; its files must
 * hash to the lock's hash. Errors name the command that fixes them.
 */
export function locatePackage(ctx: PackageContext, source: PackageSource): LocatedPackage {
  const key = packageKey(source);
  const entry = ctx.lock.packages[key];
  if (!entry || !Object.hasOwn(ctx.lock.packages, key)) throw new RecipeError('P003', { key, lock: ctx.lockFile });
  const vendored = path.join(path.dirname(ctx.lockFile), ctx.lock.vendor ?? 'vendor', vendorName(key));
  const stored = storePath(ctx.store, entry.hash);
  const dir = existsSync(vendored) ? vendored : existsSync(stored) ? stored : undefined;
  if (!dir) throw new RecipeError('P004', { key, resolved: entry.commit ?? entry.version ?? '?', store: ctx.store });
  const root = realpathSync(dir);
  if (ctx.verified.get(root) !== entry.hash) {
    const actual = hashDir(root);
    if (actual !== entry.hash) throw new RecipeError('P005', { key, where: root, actual, expected: entry.hash });
    ctx.verified.set(root, entry.hash);
  }
  const file = path.join(root, ...source.path.split('/'));
  if (!existsSync(file)) throw new RecipeError('P006', { key, path: source.path });
  return { key, root, entry, file };
}

/** True when `file` (followed through symbolic links) lies inside `root`. */
export function isInside(root: string, file: string): boolean {
  const real = existsSync(file) ? realpathSync(file) : path.resolve(file);
  const rel = path.relative(root, real);
  return rel !== '' && !rel.startsWith('..') && !path.isAbsolute(rel);
}
