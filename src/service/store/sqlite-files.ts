import type Database from 'better-sqlite3';
import { connectSqlite } from '../../sqlite/library.js';

/**
 * Copies SQLite databases file to file with SQLite's online backup API, in one step. The target may be open
 * in a running service (WAL mode): its connection sees the copied data at its next statement and re-prepares
 * its statements on its own. The test runner resets a service's data between cases this way (a few ms for a
 * small database) and keeps a case's data for the cases that run `after` it. Nothing else may write the target
 * meanwhile. Source files stay open (read-only) until close(), since most copies come from a few templates.
 */
export class SqliteCopier {
  private readonly sources = new Map<string, Database.Database>();

  async copy(from: string, to: string): Promise<void> {
    let source = this.sources.get(from);
    if (!source) {
      source = connectSqlite(from, { readonly: true, fileMustExist: true });
      this.sources.set(from, source);
    }
    // A large page count per step copies everything in one step, so no other writer can slip in between steps.
    await source.backup(to, { progress: () => 0x7fffffff });
  }

  /** Forgets a source that is about to change (a snapshot file written again). */
  release(file: string): void {
    this.sources.get(file)?.close();
    this.sources.delete(file);
  }

  close(): void {
    for (const db of this.sources.values()) db.close();
    this.sources.clear();
  }
}
