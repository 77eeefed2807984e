import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import type { Plan, Step } from '../compile/plan.js';
import type { RecipeFileHash } from '../journal/index.js';

/**
 * The recipe's file and every file it `call`s (directly or not), each once, the recipe first. With
 * `packages: false`, not the files of shared packages (git, npm calls) nor what they call: recipe.lock pins those.
 */
export function recipeFiles(plan: Plan, o: { packages?: boolean } = {}): string[] {
  const files = new Set<string>([plan.file]);
  const visit = (steps: readonly Step[]): void => {
    for (const step of steps) {
      if (step.kind === 'call' && !files.has(step.plan.file) && (o.packages !== false || !step.package)) {
        files.add(step.plan.file);
        visit(step.plan.steps);
      }
      if (step.kind === 'foreach') visit(step.steps);
      if (step.kind === 'paginate' && step.steps) visit(step.steps);
    }
  };
  visit(plan.steps);
  return [...files];
}

/** A shared package a run calls: its recipe.lock key (source and requested ref) and the commit or version. */
export interface CalledPackage {
  readonly key: string;
  readonly resolved: string;
}

/**
 * The packages (git, npm calls) the recipe calls, directly or through other packages, each once, sorted: what
 * the journal records at run start. A URL's user:password@ is left out (a token must never reach a journal).
 */
export function calledPackages(plan: Plan): CalledPackage[] {
  const found = new Map<string, string>();
  const seen = new Set<Plan>();
  const visit = (steps: readonly Step[]): void => {
    for (const step of steps) {
      if (step.kind === 'call') {
        if (step.package) found.set(step.package.key.replace(/:\/\/[^/@]*@/, '://'), step.package.resolved);
        if (!seen.has(step.plan)) {
          seen.add(step.plan);
          visit(step.plan.steps);
        }
      }
      if (step.kind === 'foreach') visit(step.steps);
      if (step.kind === 'paginate' && step.steps) visit(step.steps);
    }
  };
  visit(plan.steps);
  return [...found].sort(([a], [b]) => a.localeCompare(b)).map(([key, resolved]) => ({ key, resolved }));
}

/** Content hashes of the recipe's files as they are on disk now (a missing file hashes as "missing"). */
export async function hashRecipeFiles(plan: Plan): Promise<RecipeFileHash[]> {
  return Promise.all(
    recipeFiles(plan).map(async (path) => {
      try {
        return {
          path,
          sha256: createHash('sha256')
            .update(await readFile(path))
            .digest('hex'),
        };
      } catch {
        return { path, sha256: 'missing' };
      }
    }),
  );
}

/** Every secret name the recipe and the files it calls declare. */
export function declaredSecrets(plan: Plan): string[] {
  const names = new Set<string>(plan.secrets);
  const visit = (steps: readonly Step[]): void => {
    for (const step of steps) {
      if (step.kind === 'call') {
        for (const n of step.plan.secrets) names.add(n);
        visit(step.plan.steps);
      }
      if (step.kind === 'foreach') visit(step.steps);
      if (step.kind === 'paginate' && step.steps) visit(step.steps);
    }
  };
  visit(plan.steps);
  return [...names];
}
