import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { RecipeError } from '../errors/index.js';
import { findLock } from './lock.js';

/**
 * A fleet job pins recipe.lock as it pins recipe files: by the SHA-256 of its bytes. The lock pins every
 * package's commit and content hash, so one hash stands for all the shared recipes a run may call; a worker
 * whose lock differs would run other packages than the ones submitted.
 */

/** Hex SHA-256 of the recipe.lock that governs `recipeFile` (found from its folder up), null when none. */
export async function lockHashOf(recipeFile: string): Promise<string | null> {
  const file = findLock(path.dirname(path.resolve(recipeFile)));
  if (!file) return null;
  return createHash('sha256')
    .update(await readFile(file))
    .digest('hex');
}

/**
 * P036 when this machine's recipe.lock for `recipeFile` is not the one the job was submitted with (a lock on
 * one side only counts as different). `expected` undefined: a job from before jobs carried the lock.
 */
export async function checkLockHash(recipeFile: string, expected: string | null | undefined): Promise<void> {
  if (expected === undefined) return;
  const actual = await lockHashOf(recipeFile);
  if (actual === expected) return;
  const name = (h: string | null): string => (h === null ? 'none' : `sha256 ${h.slice(0, 12)}`);
  throw new RecipeError('P036', {
    lock: findLock(path.dirname(path.resolve(recipeFile))) ?? `recipe.lock (none from ${path.dirname(recipeFile)} up)`,
    actual: name(actual),
    expected: name(expected),
  });
}
