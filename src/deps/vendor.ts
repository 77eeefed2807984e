import { cpSync, existsSync, mkdirSync, readdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { RecipeError } from '../errors/index.js';
import { LOCK_NAME, readLock, storePath, vendorName, writeLock, type LockFile } from '../packages/index.js';

/**
 * `recipe deps vendor`: copies each locked package from the store into DIR (default `vendor`, next to the
 * lock), exactly; runs read the vendored copy before the store. The lock records DIR when it is not the default.
 */
export function vendor(opts: { dir: string; store: string; vendorDir?: string }): { dir: string; packages: number } {
  const lockFile = path.join(opts.dir, LOCK_NAME);
  if (!existsSync(lockFile))
    throw new RecipeError('P008', { file: lockFile, reason: 'no lock; run `recipe deps install` first' });
  const lock = readLock(lockFile);
  const rel = opts.vendorDir ?? lock.vendor ?? 'vendor';
  const target = path.resolve(opts.dir, rel);
  mkdirSync(target, { recursive: true });
  const wanted = new Set(Object.keys(lock.packages).map(vendorName));
  // Only folders this command made (git_..., npm_...) are removed: the rest of DIR is the user's.
  for (const name of readdirSync(target))
    if (/^(git|npm)_/.test(name) && !wanted.has(name))
      rmSync(path.join(target, name), { recursive: true, force: true });
  for (const [key, entry] of Object.entries(lock.packages)) {
    const from = storePath(opts.store, entry.hash);
    if (!existsSync(from))
      throw new RecipeError('P004', { key, resolved: entry.commit ?? entry.version, store: opts.store });
    const to = path.join(target, vendorName(key));
    rmSync(to, { recursive: true, force: true });
    cpSync(from, to, { recursive: true });
  }
  const relative = path.relative(opts.dir, target).split(path.sep).join('/');
  if ((lock.vendor ?? 'vendor') !== relative) {
    const next: LockFile = { ...lock, vendor: relative };
    writeLock(lockFile, next);
  }
  return { dir: target, packages: Object.keys(lock.packages).length };
}
