/**
 * sqlite/library: the one place a better-sqlite3 connection is made. Its native addon is named by path
 * (`nativeBinding`) instead of being looked for by the `bindings` package, which walks the call stack and
 * probes a dozen folders at the first connection of a process (~4 ms of every CLI start that opens SQLite),
 * and the CLI bundle inlines the library's JavaScript (scripts/build-cli-bundle.mjs), which Node otherwise
 * loads file by file through its ES module loader (~12 ms more). bench/README.md has the figures (issue 29).
 */
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import Database from 'better-sqlite3';

const requireHere = createRequire(import.meta.url);

/**
 * The addon's file: where both of better-sqlite3's installs (a prebuilt binary, or node-gyp building it)
 * put it. Null when it is elsewhere (a debug build): connections then load the library as published, which
 * finds its addon itself.
 */
export const SQLITE_ADDON: string | null = findAddon();

function findAddon(): string | null {
  try {
    const root = dirname(requireHere.resolve('better-sqlite3/package.json'));
    const file = join(root, 'build', 'Release', 'better_sqlite3.node');
    return existsSync(file) ? file : null;
  } catch {
    return null;
  }
}

/** Opens a connection (better-sqlite3's own options: readonly, fileMustExist, timeout). */
export function connectSqlite(path: string, options: Omit<Database.Options, 'nativeBinding'> = {}): Database.Database {
  if (SQLITE_ADDON !== null) return new Database(path, { ...options, nativeBinding: SQLITE_ADDON });
  // Not the bundled copy: the published package, whose own lookup knows where it was installed from.
  const Published = requireHere('better-sqlite3') as typeof Database;
  return new Published(path, options);
}
