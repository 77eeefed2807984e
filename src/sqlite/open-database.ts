/**
 * sqlite/: the house settings of a SQLite database that one process writes while others read it: the run
 * journal (src/journal/sqlite/) and the embedded service's store (src/service/store/) open theirs here. A leaf
 * both halves may import: it imports nothing of src/ outside sqlite/.
 */
import { chmodSync, closeSync, existsSync, openSync } from 'node:fs';
import type Database from 'better-sqlite3';
import { connectSqlite } from './library.js';

/** How long a connection waits for a lock another connection holds before SQLITE_BUSY. */
export const SQLITE_BUSY_TIMEOUT_MS = 5000;

/**
 * The house pragmas, in order. WAL lets readers go on while one writer writes (a `:memory:` database silently
 * stays in "memory" mode). synchronous NORMAL: a commit survives the process being killed (the WAL is in the
 * OS's hands); only a power loss can take the last commits. Plain strings, so the journal's writer thread
 * (plain JavaScript) applies the same list.
 */
export const SQLITE_HOUSE_PRAGMAS: readonly string[] = ['journal_mode = WAL', 'synchronous = NORMAL'];

/**
 * Opens (creating if needed) a read-write database with the busy timeout and the house pragmas. `private`:
 * the file is created 0600 (owner only), and an existing one and its -wal/-shm sidecars are narrowed to 0600;
 * SQLite gives the sidecars it creates the database file's mode, so they are 0600 too. `pageSize` (bytes, a
 * power of two from 512 to 65536) lays out a new database; an existing one keeps the size it was made with.
 */
export function openSqliteDatabase(
  path: string,
  options: { readonly private?: boolean; readonly pageSize?: number } = {},
): Database.Database {
  const secret = options.private === true && path !== ':memory:';
  if (secret && !existsSync(path)) closeSync(openSync(path, 'a', 0o600));
  const db = connectSqlite(path, { timeout: SQLITE_BUSY_TIMEOUT_MS });
  try {
    // Before WAL mode: switching to it writes the first page of a new file, and the size with it.
    if (options.pageSize !== undefined) db.pragma(`page_size = ${Math.trunc(options.pageSize)}`);
    for (const pragma of SQLITE_HOUSE_PRAGMAS) db.pragma(pragma);
    if (secret) narrowToOwner(path);
  } catch (err) {
    db.close();
    throw err;
  }
  return db;
}

/** chmod 0600 the database and its sidecars where they exist (a file of another owner is left as it is). */
function narrowToOwner(path: string): void {
  for (const file of [path, `${path}-wal`, `${path}-shm`]) {
    try {
      if (existsSync(file)) chmodSync(file, 0o600);
    } catch {
      // Not ours to change (another owner): the journal still works; its mode is the owner's business.
    }
  }
}
