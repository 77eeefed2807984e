import { existsSync } from 'node:fs';
import path from 'node:path';
import { hashDir, LOCK_NAME, readLock, storePath, vendorName, type LockedPackage } from '../packages/index.js';
import { npmPublishedIntegrity } from '../packages/npm.js';
import { movedAway } from './fetch.js';

/** One problem `recipe deps verify` found. */
export interface VerifyProblem {
  readonly key: string;
  /** republished: the registry's integrity for the locked npm version is not the lock's. */
  readonly kind: 'missing' | 'tampered' | 'moved' | 'unreachable' | 'republished' | 'unreadable';
  readonly detail: string;
}

/**
 * `recipe deps verify`: re-hashes each locked package where a run would read it (vendor, then store); with
 * `online`, asks each git remote where the ref points now and whether the locked commit is still reachable
 * from its branches and tags, and each npm registry whether it still serves the locked version with the
 * locked integrity (a version unpublished, or published again with other bytes).
 */
export async function verify(opts: {
  dir: string;
  store: string;
  online?: boolean;
  registry?: string;
}): Promise<VerifyProblem[]> {
  const lockFile = path.join(opts.dir, LOCK_NAME);
  const lock = readLock(lockFile);
  const problems: VerifyProblem[] = [];
  for (const [key, entry] of Object.entries(lock.packages).sort(([a], [b]) => a.localeCompare(b))) {
    const vendored = path.join(opts.dir, lock.vendor ?? 'vendor', vendorName(key));
    const stored = storePath(opts.store, entry.hash);
    const dir = existsSync(vendored) ? vendored : existsSync(stored) ? stored : undefined;
    if (!dir) problems.push({ key, kind: 'missing', detail: 'neither vendored nor in the store' });
    else {
      const actual = hashDir(dir);
      if (actual !== entry.hash)
        problems.push({ key, kind: 'tampered', detail: `${dir} hashes to ${actual}, the lock says ${entry.hash}` });
    }
    if (!opts.online) continue;
    if (entry.source === 'npm') {
      problems.push(...(await npmOnline(key, entry, opts.registry)));
      continue;
    }
    try {
      const now = await movedAway(entry, opts.store);
      if (!now) continue;
      if (now.now !== entry.commit && !now.descends)
        problems.push({
          key,
          kind: 'moved',
          detail: `${entry.ref_name ?? entry.ref} moved from ${entry.commit} to ${now.now}, which does not descend from it`,
        });
      else if (now.now !== entry.commit && entry.ref_kind === 'tag')
        problems.push({ key, kind: 'moved', detail: `tag ${entry.ref_name} moved from ${entry.commit} to ${now.now}` });
      if (!now.reachable)
        problems.push({
          key,
          kind: 'unreachable',
          detail: `commit ${entry.commit} is not reachable from any branch or tag of ${entry.url}`,
        });
    } catch (err) {
      problems.push({ key, kind: 'unreadable', detail: (err as Error).message });
    }
  }
  return problems;
}

/** The registry's view of a locked npm version: still published, with the integrity the lock recorded. */
async function npmOnline(key: string, entry: LockedPackage, registry?: string): Promise<VerifyProblem[]> {
  try {
    const now = await npmPublishedIntegrity(entry.name!, entry.version!, registry);
    if (now === null)
      return [{ key, kind: 'unreachable', detail: `${entry.name}@${entry.version} is no longer published` }];
    if (now !== entry.integrity)
      return [
        {
          key,
          kind: 'republished',
          detail: `the registry's integrity of ${entry.name}@${entry.version} is ${now}, the lock says ${entry.integrity}`,
        },
      ];
    return [];
  } catch (err) {
    return [{ key, kind: 'unreadable', detail: (err as Error).message }];
  }
}
