import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { isAbsolute, relative, resolve, sep } from 'node:path';
import { RecipeError } from '../errors/index.js';
import type { PinnedFile } from './job.js';

/**
 * Recipes travel by name, not by content: a job names a file under the recipes directory and pins its
 * SHA-256, and every worker runs its own copy only if it hashes the same.
 */

/** A file's path relative to the recipes directory ('/'-separated); F002 when it is not inside it. */
export function pinnedPath(recipesDir: string, file: string): string {
  const rel = relative(resolve(recipesDir), resolve(file));
  if (rel === '' || rel.startsWith('..') || isAbsolute(rel))
    throw new RecipeError('F002', { file, dir: resolve(recipesDir) });
  return rel.split(sep).join('/');
}

/** Where a pinned path is on this machine; F004 for a path that would leave the recipes directory. */
export function localPath(recipesDir: string, pinned: string, jobId: string): string {
  const file = resolve(recipesDir, pinned);
  const rel = relative(resolve(recipesDir), file);
  if (isAbsolute(pinned) || rel.startsWith('..') || isAbsolute(rel) || rel === '')
    throw new RecipeError('F004', { jobId, reason: `recipe path "${pinned}" is not inside the recipes directory` });
  return file;
}

/** Hex SHA-256 of a file's bytes, or 'missing'. */
export async function hashFile(file: string): Promise<string> {
  try {
    return createHash('sha256')
      .update(await readFile(file))
      .digest('hex');
  } catch {
    return 'missing';
  }
}

/**
 * Checks this machine's copies against the pins: F021 for the first that is missing (naming this worker's
 * recipes folder), F003 for the first that differs.
 */
export async function checkPins(recipesDir: string, pins: readonly PinnedFile[], jobId: string): Promise<void> {
  for (const pin of pins) {
    const actual = await hashFile(localPath(recipesDir, pin.path, jobId));
    if (actual === 'missing') throw new RecipeError('F021', { file: pin.path, dir: resolve(recipesDir) });
    if (actual !== pin.sha256)
      throw new RecipeError('F003', { file: pin.path, actual: actual.slice(0, 12), expected: pin.sha256.slice(0, 12) });
  }
}
