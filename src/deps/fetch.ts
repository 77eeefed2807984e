import { existsSync } from 'node:fs';
import { RecipeError } from '../errors/index.js';
import { archive, descendsFrom, listRemoteRefs, mirror, reachableFromRefs, resolveRef } from '../packages/git.js';
import { npmPack } from '../packages/npm.js';
import {
  putArchive,
  storePath,
  type LockedPackage,
  type PackageSource,
  type PinnedPackage,
} from '../packages/index.js';
import { git } from '../packages/git.js';

/** A package entry without what compiling its recipes adds. */
export type Pinned = PinnedPackage;

export interface FetchOptions {
  readonly store: string;
  readonly registry?: string;
}

/** Resolves the source's ref now (the network) and puts that exact version into the store. */
export async function resolveAndFetch(source: PackageSource, opts: FetchOptions, ref?: string): Promise<Pinned> {
  if (source.kind === 'npm') {
    const packed = await npmPack(source.name, ref ?? source.range, opts.registry);
    const { hash } = putArchive(opts.store, packed.tarball, 1);
    return {
      source: 'npm',
      name: source.name,
      range: source.range,
      version: packed.version,
      integrity: packed.integrity,
      hash,
    };
  }
  const refs = await listRemoteRefs(source.url);
  const to = resolveRef({ url: source.url, ref: ref ?? source.ref }, refs);
  const dir = await mirror(opts.store, source.url);
  if (!(await reachableFromRefs(dir, source.url, to.commit)))
    throw new RecipeError('P013', { commit: to.commit, url: source.url });
  const { hash } = putArchive(opts.store, await archive(dir, source.url, to.commit));
  return {
    source: 'git',
    url: source.url,
    ref: source.ref,
    ref_kind: to.kind,
    ref_name: to.refName,
    commit: to.commit,
    reachable: true,
    hash,
  };
}

/** Puts the locked version of a package into the store when it is not there (the lock is not changed). */
export async function fetchLocked(entry: LockedPackage, key: string, opts: FetchOptions): Promise<void> {
  if (existsSync(storePath(opts.store, entry.hash))) return;
  let hash: string;
  if (entry.source === 'npm') {
    const packed = await npmPack(entry.name!, entry.version!, opts.registry);
    hash = putArchive(opts.store, packed.tarball, 1).hash;
  } else {
    const dir = await mirror(opts.store, entry.url!);
    const present = await git(['cat-file', '-e', `${entry.commit}^{commit}`], { cwd: dir, url: entry.url! }).then(
      () => true,
      () => false,
    );
    if (!present || !(await reachableFromRefs(dir, entry.url!, entry.commit!)))
      throw new RecipeError('P013', { commit: entry.commit, url: entry.url });
    hash = putArchive(opts.store, await archive(dir, entry.url!, entry.commit!)).hash;
  }
  if (hash !== entry.hash)
    throw new RecipeError('P005', { key, where: 'the fetched copy', actual: hash, expected: entry.hash });
}

/** Whether a git ref now points somewhere that does not descend from the locked commit (a moved tag). */
export async function movedAway(
  entry: LockedPackage,
  store: string,
): Promise<{ now: string; descends: boolean; reachable: boolean } | undefined> {
  if (entry.source !== 'git' || !entry.url || !entry.commit) return undefined;
  const refs = await listRemoteRefs(entry.url);
  const dir = await mirror(store, entry.url);
  const reachable = await reachableFromRefs(dir, entry.url, entry.commit);
  if (entry.ref_kind === 'commit') return { now: entry.commit, descends: true, reachable };
  const now = resolveRef({ url: entry.url, ref: entry.ref! }, refs).commit;
  return { now, descends: now === entry.commit || (await descendsFrom(dir, entry.url, entry.commit, now)), reachable };
}
