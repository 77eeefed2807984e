import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The secret names each YAML file of a project declares, and the entries of each folder the walk looks
 * into, kept between runs in the project's `.recipe/` folder (only when that folder already exists: nothing
 * is created for it). A CLI run would otherwise read every YAML file of the project at each start (40–70 ms
 * on this repository), and list every folder (30–45 ms with the files cached); with it, a file is read again
 * only when its size or mtime changed, and a folder listed again only when its mtime changed. Only names are
 * kept, never values.
 */

/** One file's names, valid while its size and mtime stay. */
export interface CachedFile {
  readonly size: number;
  readonly mtimeMs: number;
  readonly names: readonly string[];
}

/** An entry of a folder that the walk looks into: a sub-folder or a YAML file, and its place in the sorted listing. */
export interface ListedEntry {
  readonly name: string;
  /** Its index among all the folder's entries sorted by name (the walk's budget counts every entry). */
  readonly index: number;
  readonly folder: boolean;
}

/** A folder's entries that the walk looks into, valid while its mtime stays. */
export interface CachedListing {
  readonly mtimeMs: number;
  /** How many entries the folder has in all. */
  readonly count: number;
  readonly entries: readonly ListedEntry[];
}

/** What one walk went through, to be kept. */
export interface KeptWalk {
  readonly seen: ReadonlyMap<string, CachedFile>;
  readonly dirs: ReadonlyMap<string, CachedListing>;
}

const FILE = 'secret-names.json';
/** 2: folders' listings kept too. A file of another version is read as none. */
const VERSION = 2;

/** The cache file of a project root, or undefined when the root has no `.recipe/` folder. */
export function cacheFileOf(root: string): string | undefined {
  const dir = join(root, '.recipe');
  return existsSync(dir) ? join(dir, FILE) : undefined;
}

/** The files and folders kept in `file` (none when it is missing, unreadable or of another version). */
export function readNamesCache(file: string): {
  files: Map<string, CachedFile>;
  dirs: Map<string, CachedListing>;
} {
  const files = new Map<string, CachedFile>();
  const dirs = new Map<string, CachedListing>();
  try {
    const data = JSON.parse(readFileSync(file, 'utf8')) as { version?: unknown; files?: unknown; dirs?: unknown };
    if (data.version !== VERSION || !isRecord(data.files) || !isRecord(data.dirs)) return { files, dirs };
    for (const [path, entry] of Object.entries(data.files)) {
      if (!Array.isArray(entry) || entry.length !== 3) continue;
      const [size, mtimeMs, names] = entry as unknown[];
      if (typeof size !== 'number' || typeof mtimeMs !== 'number' || !Array.isArray(names)) continue;
      if (!names.every((n): n is string => typeof n === 'string')) continue;
      files.set(path, { size, mtimeMs, names });
    }
    for (const [path, entry] of Object.entries(data.dirs)) {
      const listing = listingFrom(entry);
      if (listing) dirs.set(path, listing);
    }
  } catch {
    // No cache yet, or a damaged one: the walk reads the files and writes it again.
  }
  return { files, dirs };
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

/** A kept folder listing, `[mtimeMs, count, [[name, index, 1 for a folder | 0], ...]]`, or undefined when malformed. */
function listingFrom(entry: unknown): CachedListing | undefined {
  if (!Array.isArray(entry) || entry.length !== 3) return undefined;
  const [mtimeMs, count, items] = entry as unknown[];
  if (typeof mtimeMs !== 'number' || typeof count !== 'number' || !Array.isArray(items)) return undefined;
  const entries: ListedEntry[] = [];
  for (const item of items) {
    if (!Array.isArray(item) || item.length !== 3) return undefined;
    const [name, index, folder] = item as unknown[];
    if (typeof name !== 'string' || typeof index !== 'number' || (folder !== 0 && folder !== 1)) return undefined;
    entries.push({ name, index, folder: folder === 1 });
  }
  return { mtimeMs, count, entries };
}

/** Replaces `file` with what a walk went through (atomically: a concurrent run reads the old or the new one whole). */
export function writeNamesCache(file: string, walked: KeptWalk): void {
  const files: Record<string, [number, number, readonly string[]]> = {};
  for (const [path, e] of walked.seen) files[path] = [e.size, e.mtimeMs, e.names];
  const dirs: Record<string, [number, number, Array<[string, number, 0 | 1]>]> = {};
  for (const [path, l] of walked.dirs)
    dirs[path] = [l.mtimeMs, l.count, l.entries.map((e) => [e.name, e.index, e.folder ? 1 : 0])];
  const tmp = `${file}.${process.pid}.tmp`;
  try {
    writeFileSync(tmp, `${JSON.stringify({ version: VERSION, files, dirs })}\n`, { mode: 0o600 });
    renameSync(tmp, file);
  } catch {
    // A read-only project still runs; the next run walks again.
  }
}
