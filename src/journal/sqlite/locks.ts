import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type Database from 'better-sqlite3';
import { connectSqlite } from '../../sqlite/library.js';

/** A hold on one run; released explicitly, or by the operating system when the process dies. */
export interface RunLock {
  release(): void;
}

/** How long acquire waits for a process that is only peeking (isHeld) to let go. */
const ACQUIRE_WAIT_MS = 250;

/**
 * Who holds a run, decided by the operating system rather than by age: each held run has a lock file
 * (`<journal>-locks/<run id>`) that the holding process keeps open under an exclusive SQLite lock. SQLite's
 * locks are POSIX advisory locks, which the kernel drops when the process ends however it ends (SIGKILL,
 * out of memory), so a run whose process died is seen as not held (interrupted) at once, and a run whose
 * process is alive (however slow or stuck in a 503 storm) is never mistaken for a dead one.
 * With no directory (an in-memory journal), holds live in this object only.
 */
export class RunLocks {
  private readonly held = new Map<string, Database.Database | null>();

  constructor(private readonly dir: string | null) {}

  /** Takes the run's lock; null when another process holds it. */
  acquire(runId: string): RunLock | null {
    if (this.held.has(runId)) return null;
    if (this.dir === null) {
      this.held.set(runId, null);
      return { release: () => void this.held.delete(runId) };
    }
    mkdirSync(this.dir, { recursive: true });
    const db = connectSqlite(this.fileOf(runId), { timeout: ACQUIRE_WAIT_MS });
    try {
      // Nothing is ever written: a rollback journal in memory spares the journal file, its fsyncs and the
      // folder's (a file journal made and synced four times per run, ~2 ms and more on a busy disk).
      db.pragma('journal_mode = MEMORY');
      db.pragma('locking_mode = EXCLUSIVE');
      db.exec('BEGIN EXCLUSIVE');
    } catch (err) {
      db.close();
      if ((err as { code?: string }).code === 'SQLITE_BUSY') return null;
      throw err;
    }
    this.held.set(runId, db);
    return {
      release: () => {
        if (this.held.get(runId) !== db) return;
        this.held.delete(runId);
        try {
          db.exec('ROLLBACK');
        } finally {
          db.close();
        }
      },
    };
  }

  /** True when a live process (this one included) holds the run. */
  isHeld(runId: string): boolean {
    if (this.held.has(runId)) return true;
    if (this.dir === null) return false;
    let db: Database.Database;
    try {
      // Read-only: a reader (a console) may look without write access, and never blocks a resume taking it.
      db = connectSqlite(this.fileOf(runId), { timeout: 0, fileMustExist: true, readonly: true });
    } catch {
      return false; // no lock file: never held, or its holder ended and removed it
    }
    try {
      // A read needs a shared lock, which the holder's exclusive lock refuses.
      db.prepare('SELECT count(*) FROM sqlite_master').get();
      return false;
    } catch (err) {
      if ((err as { code?: string }).code === 'SQLITE_BUSY') return true;
      throw err;
    } finally {
      db.close();
    }
  }

  /** Removes a lock file that nobody needs any more (the run ended, or was pruned). */
  remove(runId: string): void {
    if (this.dir !== null && !this.held.has(runId)) rmSync(this.fileOf(runId), { force: true });
  }

  /** Releases every hold of this process (closing the journal). */
  releaseAll(): void {
    for (const [runId, db] of this.held) {
      this.held.delete(runId);
      db?.close();
    }
  }

  private fileOf(runId: string): string {
    return join(this.dir as string, runId);
  }
}
