import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
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
  const fresh = () => existsSync(main) && statSync(main).mtimeMs >= newestMtime(join(root, 'src'));
  if (fresh()) return;
  // Test files run in parallel workers: one builds, the others wait for it instead of writing dist/ too.
  const lock = join(tmpdir(), `recipe-build-${Buffer.from(root).toString('base64url').slice(-40)}.lock`);
  const deadline = Date.now() + 180_000;
  for (;;) {
    try {
      mkdirSync(lock);
      break;
    } catch {
      const held = statSync(lock, { throwIfNoEntry: false });
      // A lock older than 5 minutes was left by a killed worker.
      if (held && Date.now() - held.mtimeMs > 300_000) rmSync(lock, { recursive: true, force: true });
      if (Date.now() > deadline) throw new Error(`waited too long for another build (${lock})`);
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 200);
    }
  }
  try {
    if (!fresh()) build();
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
  if (!existsSync(main)) throw new Error('build produced no dist/cli/main.js');
}

function build(): void {
  try {
    execFileSync(
      process.execPath,
      [join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.build.json', '--noEmitOnError', 'false'],
      { cwd: root, stdio: 'pipe' },
    );
  } catch {
    // tsc exits non-zero on type errors but has emitted; ensureBuilt checks the output.
  }
}

/** Absolute path of the CLI launcher. */
export const recipeBin = join(root, 'bin', 'recipe.js');
