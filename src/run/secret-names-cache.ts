import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The secret names each YAML file of a project declares, kept between runs in the project's `.recipe/`
 * folder (only when that folder already exists: nothing is created for it). A CLI run would otherwise read
 * every YAML file of the project at each start (40–70 ms on this repository); with it, a file is read again
 * only when its size or mtime changed. Only names are kept, never values.
 */

/** One file's names, valid while its size and mtime stay. */
export interface CachedFile {
  readonly size: number;
  readonly mtimeMs: number;
  readonly names: readonly string[];
}

const FILE = 'secret-names.json';
const VERSION = 1;

/** The cache file of a project root, or undefined when the root has no `.recipe/` folder. */
export function cacheFileOf(root: string): string | undefined {
  const dir = join(root, '.recipe');
  return existsSync(dir) ? join(dir, FILE) : undefined;
}

/** The entries kept in `file` (none when it is missing, unreadable or of another version). */
export function readNamesCache(file: string): Map<string, CachedFile> {
  const out = new Map<string, CachedFile>();
  try {
    const data = JSON.parse(readFileSync(file, 'utf8')) as { version?: unknown; files?: unknown };
    if (data.version !== VERSION || data.files === null || typeof data.files !== 'object') return out;
    for (const [path, entry] of Object.entries(data.files as Record<string, unknown>)) {
      if (!Array.isArray(entry) || entry.length !== 3) continue;
      const [size, mtimeMs, names] = entry as unknown[];
      if (typeof size !== 'number' || typeof mtimeMs !== 'number' || !Array.isArray(names)) continue;
      if (!names.every((n): n is string => typeof n === 'string')) continue;
      out.set(path, { size, mtimeMs, names });
    }
  } catch {
    // No cache yet, or a damaged one: the walk reads the files and writes it again.
  }
  return out;
}

/** Replaces `file` with `entries` (atomically: a concurrent run reads the old or the new one whole). */
export function writeNamesCache(file: string, entries: ReadonlyMap<string, CachedFile>): void {
  const files: Record<string, [number, number, readonly string[]]> = {};
  for (const [path, e] of entries) files[path] = [e.size, e.mtimeMs, e.names];
  const tmp = `${file}.${process.pid}.tmp`;
  try {
    writeFileSync(tmp, `${JSON.stringify({ version: VERSION, files })}\n`, { mode: 0o600 });
    renameSync(tmp, file);
  } catch {
    // A read-only project still runs; the next run walks again.
  }
}
