import Database from 'better-sqlite3';

/**
 * Copies the SQLite database in file `from` over the one in file `to` with SQLite's online backup API, in one
 * step. `to` may be open in a running service (WAL mode): its connection sees the copied data at its next
 * statement, and re-prepares its statements on its own. The test runner resets a service's data between cases
 * this way (a few ms for a small database), and keeps a case's data for the cases that run `after` it.
 * Nothing else may be writing `to` meanwhile.
 */
export async function copySqliteDatabase(from: string, to: string): Promise<void> {
  const source = new Database(from, { readonly: true, fileMustExist: true });
  try {
    // A large page count per step copies everything in one step, so no other writer can slip in between steps.
    await source.backup(to, { progress: () => 0x7fffffff });
  } finally {
    source.close();
  }
}
