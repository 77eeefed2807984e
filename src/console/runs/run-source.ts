import { createHash } from 'node:crypto';
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import type { RunRecord } from '../../journal/index.js';
import type { RunSource } from '../run-api-types.js';

/** Largest recipe file the run page shows. */
const MAX_SOURCE_BYTES = 1024 * 1024;

/**
 * The recipe source the run page shows: the file its error points into (a called recipe's, when it failed
 * there), else the run's recipe. Only a YAML file the run recorded among the files it used is read, and its
 * hash says whether it changed since the run (its lines may have moved). Null when it cannot be read.
 */
export async function readRunSource(record: RunRecord, cwd: string): Promise<RunSource | null> {
  const error = record.error as { file?: unknown; line?: unknown } | null;
  const wanted = typeof error?.file === 'string' ? error.file : record.file;
  const same = (p: string): boolean => path.resolve(cwd, p) === path.resolve(cwd, wanted);
  const recorded = record.files.find((f) => same(f.path)) ?? (same(record.file) ? { path: record.file } : undefined);
  if (!recorded || !/\.ya?ml$/i.test(recorded.path)) return null;
  const abs = path.resolve(cwd, recorded.path);
  try {
    const info = await stat(abs);
    if (!info.isFile() || info.size > MAX_SOURCE_BYTES) return null;
    const bytes = await readFile(abs);
    const sha256 = createHash('sha256').update(bytes).digest('hex');
    return {
      file: shownPath(recorded.path, cwd),
      text: bytes.toString('utf8'),
      line: typeof error?.line === 'number' && typeof error.file === 'string' ? error.line : null,
      changed: 'sha256' in recorded && recorded.sha256 !== sha256,
    };
  } catch {
    return null;
  }
}

/** A recorded path as the pages show it: relative to the console's folder when inside it (shorter, and what the recipe pages call it). */
export function shownPath(p: string, cwd: string): string {
  const rel = path.relative(cwd, path.resolve(cwd, p));
  return rel !== '' && !rel.startsWith('..') && !path.isAbsolute(rel) ? rel : p;
}
