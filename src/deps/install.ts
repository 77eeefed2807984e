import { existsSync } from 'node:fs';
import path from 'node:path';
import { packageFootprint } from '../compile/index.js';
import { RecipeError } from '../errors/index.js';
import {
  LOCK_NAME,
  formatLock,
  packageKey,
  readLock,
  storePath,
  writeLock,
  type Footprint,
  type LockFile,
  type LockedPackage,
  type PackageSource,
} from '../packages/index.js';
import { descendsFrom, mirror } from '../packages/git.js';
import { fetchLocked, resolveAndFetch, type Pinned } from './fetch.js';
import { packageCalls, recipesUnder } from './scan.js';

export interface InstallOptions {
  /** The folder of the recipes and of recipe.lock. */
  readonly dir: string;
  readonly store: string;
  /** Fail instead of changing the lock. */
  readonly frozen?: boolean;
  readonly registry?: string;
  /** Packages to resolve again (recipe deps update), with the ref to resolve instead of the written one. */
  readonly refresh?: ReadonlyMap<string, string | undefined>;
  /** Accept a ref that moved to a commit not descending from the locked one. */
  readonly acceptMoved?: boolean;
}

export interface InstallResult {
  readonly lockFile: string;
  readonly before: LockFile | undefined;
  readonly lock: LockFile;
  readonly changed: boolean;
  readonly fetched: readonly string[];
}

/**
 * `recipe deps install` (and update): every package of the call graph, from the project's recipes down, is
 * pinned in recipe.lock and present in the store. What the lock already pins is only fetched when the store
 * lacks it (and must hash as locked); what it lacks is resolved now, unless `frozen`.
 */
export async function install(opts: InstallOptions): Promise<InstallResult> {
  const lockFile = path.join(opts.dir, LOCK_NAME);
  const before = existsSync(lockFile) ? readLock(lockFile) : undefined;
  const vendorDir = path.join(opts.dir, before?.vendor ?? 'vendor');
  const pinned = new Map<string, { pin: Pinned; source: PackageSource; calls: string[] }>();
  const fetched: string[] = [];
  const queue: PackageSource[] = await packageCalls(await recipesUnder(opts.dir, [vendorDir]));
  const fetchOpts = { store: opts.store, ...(opts.registry ? { registry: opts.registry } : {}) };
  while (queue.length > 0) {
    const source = queue.shift()!;
    const key = packageKey(source);
    if (pinned.has(key)) continue;
    const old = before?.packages[key];
    let pin: Pinned;
    if (old && !opts.refresh?.has(key)) {
      await fetchLocked(old, key, fetchOpts);
      pin = old;
    } else {
      if (opts.frozen) throw new RecipeError('P015', { what: key });
      pin = await resolveAndFetch(source, fetchOpts, opts.refresh?.get(key));
      if (old && !opts.acceptMoved) await refuseMoved(old, pin, opts.store);
      fetched.push(key);
    }
    const root = storePath(opts.store, pin.hash);
    const calls = await packageCalls(await recipesUnder(root));
    pinned.set(key, { pin, source, calls: [...new Set(calls.map(packageKey))].sort() });
    queue.push(...calls);
  }
  // Footprints come from compiling each package's recipes against the lock being made.
  const draft: Record<string, LockedPackage> = {};
  for (const [key, p] of pinned) draft[key] = { ...p.pin, calls: p.calls, footprint: EMPTY };
  const draftLock: LockFile = { version: 1, ...(before?.vendor ? { vendor: before.vendor } : {}), packages: draft };
  const context = { lockFile, lock: draftLock, store: opts.store, verified: new Map<string, string>() };
  const packages: Record<string, LockedPackage> = {};
  for (const [key, p] of pinned) {
    const footprint = await packageFootprint(
      storePath(opts.store, p.pin.hash),
      await recipesUnder(storePath(opts.store, p.pin.hash)),
      { context },
    );
    packages[key] = { ...p.pin, calls: p.calls, footprint };
  }
  const lock: LockFile = { version: 1, ...(before?.vendor ? { vendor: before.vendor } : {}), packages };
  const changed = !before || formatLock(before) !== formatLock(lock);
  if (changed && opts.frozen) throw new RecipeError('P015', { what: diffKeys(before, lock) });
  if (changed) writeLock(lockFile, lock);
  return { lockFile, before, lock, changed, fetched };
}

const EMPTY: Footprint = { reads: [], writes: [], secrets: [], http: [] };

async function refuseMoved(old: LockedPackage, pin: Pinned, store: string): Promise<void> {
  if (old.source !== 'git' || pin.commit === old.commit || old.ref !== pin.ref) return;
  const dir = await mirror(store, old.url!);
  if (!(await descendsFrom(dir, old.url!, old.commit!, pin.commit!)))
    throw new RecipeError('P014', { ref: old.ref, url: old.url, old: old.commit, new: pin.commit });
}

function diffKeys(before: LockFile | undefined, after: LockFile): string {
  const keys = new Set([...Object.keys(before?.packages ?? {}), ...Object.keys(after.packages)]);
  const diff = [...keys].filter(
    (k) => JSON.stringify(before?.packages[k] ?? null) !== JSON.stringify(after.packages[k] ?? null),
  );
  return diff.join(', ') || 'its layout';
}
