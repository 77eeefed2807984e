import path from 'node:path';
import { findRecipeFiles } from '../compile/index.js';
import { isProblem, parseCallSource, type PackageSource } from '../packages/index.js';
import { loadSource } from '../source/index.js';

/** The package sources (git, npm) that the `call:` steps of these recipe files name, in file order. */
export async function packageCalls(files: readonly string[]): Promise<PackageSource[]> {
  const out: PackageSource[] = [];
  for (const file of files) {
    const doc = await loadSource(file);
    const steps = (doc.value as { steps?: unknown } | undefined)?.steps;
    walk(steps, out);
  }
  return out;
}

function walk(steps: unknown, out: PackageSource[]): void {
  if (!Array.isArray(steps)) return;
  for (const step of steps as Record<string, unknown>[]) {
    if (step === null || typeof step !== 'object') continue;
    if (step.call !== undefined) {
      const source = parseCallSource(step.call);
      if (!isProblem(source) && source.kind !== 'relative') out.push(source);
    }
    walk(step.steps, out);
  }
}

/** The recipe files under `dir` (as `recipe validate DIR` finds them), leaving out `exclude` folders. */
export async function recipesUnder(dir: string, exclude: readonly string[] = []): Promise<string[]> {
  const found = await findRecipeFiles([dir], dir);
  return found.recipes
    .map((f) => path.resolve(dir, f))
    .filter((f) => !exclude.some((x) => f.startsWith(path.resolve(x) + path.sep)));
}
