import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { RecipeError } from '../errors/index.js';
import type { Footprint } from './grant.js';

export const LOCK_NAME = 'recipe.lock';

/** One package of the call graph, as `recipe deps` pinned it (see LockedPackage for what compiling adds). */
export interface PinnedPackage {
  readonly source: 'git' | 'npm';
  /** git: the repository URL and the ref as written in the call. */
  readonly url?: string;
  readonly ref?: string;
  /** How the ref resolved: a tag, a branch, a semver range (over vX.Y.Z tags), or a commit id. */
  readonly ref_kind?: 'tag' | 'branch' | 'semver' | 'commit';
  /** The full ref name it resolved through (refs/tags/v1.4.0), null for a commit id. */
  readonly ref_name?: string | null;
  readonly commit?: string;
  /** The commit was reachable from a branch or tag of the repository when locked. */
  readonly reachable?: boolean;
  /** npm: the package name, the range as written, the version and the registry's integrity. */
  readonly name?: string;
  readonly range?: string;
  readonly version?: string;
  readonly integrity?: string;
  /** Go's h1: hash of the package's files. */
  readonly hash: string;
}

/** A pinned package with what compiling its recipes tells: the packages it calls and its footprint. */
export interface LockedPackage extends PinnedPackage {
  /** Keys of the packages this package's recipes call. */
  readonly calls: readonly string[];
  readonly footprint: Footprint;
}

export interface LockFile {
  readonly version: 1;
  /** Where `recipe deps vendor` put the packages, relative to the lock (runs look there first). */
  readonly vendor?: string;
  readonly packages: Readonly<Record<string, LockedPackage>>;
}

/** The recipe.lock from `dir` up to the filesystem root (or a repository root), if any. */
export function findLock(dir: string): string | undefined {
  let at = path.resolve(dir);
  for (;;) {
    const candidate = path.join(at, LOCK_NAME);
    if (existsSync(candidate)) return candidate;
    if (existsSync(path.join(at, '.git'))) return undefined;
    const up = path.dirname(at);
    if (up === at) return undefined;
    at = up;
  }
}

export function readLock(file: string): LockFile {
  let value: unknown;
  try {
    value = JSON.parse(readFileSync(file, 'utf8'));
  } catch (err) {
    throw new RecipeError('P008', { file, reason: (err as Error).message });
  }
  const lock = value as Partial<LockFile> | null;
  if (!lock || lock.version !== 1 || typeof lock.packages !== 'object' || lock.packages === null)
    throw new RecipeError('P008', { file, reason: 'not a recipe.lock of version 1' });
  return lock as LockFile;
}

/** JSON with sorted keys and two-space indentation: the same lock always has the same bytes. */
export function formatLock(lock: LockFile): string {
  return `${JSON.stringify(sortKeys(lock), null, 2)}\n`;
}

export function writeLock(file: string, lock: LockFile): void {
  writeFileSync(file, formatLock(lock));
}

function sortKeys(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(sortKeys);
  if (v === null || typeof v !== 'object') return v;
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(v).sort()) {
    const value = (v as Record<string, unknown>)[k];
    if (value !== undefined) out[k] = sortKeys(value);
  }
  return out;
}

/** A folder name for a package in the vendor directory: readable, one level, no separators. */
export function vendorName(key: string): string {
  return key.replace(/^(git|npm):(https?:\/\/|file:\/\/|ssh:\/\/|git:\/\/)?/, '$1_').replace(/[^\w.@^~-]+/g, '_');
}
