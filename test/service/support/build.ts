import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

const root = join(import.meta.dirname, '..', '..', '..');

function newestMtime(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(p) : statSync(p).mtimeMs);
  }
  return newest;
}

/**
 * Makes sure dist/ is at least as new as src/ so `node bin/recipe.js` runs the code under test.
 * `npm test` builds first, so this is usually a no-op; run alone, a test file rebuilds. Type errors in
 * files being edited elsewhere must not block the CLI tests, so JS is emitted even when tsc complains.
 */
export function ensureBuilt(): void {
  const main = join(root, 'dist', 'cli', 'main.js');
  if (existsSync(main) && statSync(main).mtimeMs >= newestMtime(join(root, 'src'))) return;
  try {
    execFileSync(process.execPath, [join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.build.json', '--noEmitOnError', 'false'], { cwd: root, stdio: 'pipe' });
  } catch {
    // tsc exits non-zero on type errors but has emitted; the check below is what matters.
  }
  if (!existsSync(main)) throw new Error('build produced no dist/cli/main.js');
}

/** Absolute path of the CLI launcher. */
export const recipeBin = join(root, 'bin', 'recipe.js');
