import type Database from 'better-sqlite3';

/**
 * The journal's tables. A run's counters and duration are its attempts' sums (an attempt's row is updated at
 * every flush, so a killed attempt still counts what it did). Times are epoch ms (INTEGER) so that listing and pruning compare numbers; values the
 * journal does not interpret (requests, answers, reports) are JSON texts. Indexes serve what history and the
 * console ask: runs newest first (all, by status, by recipe), a run's events in order, one call by key.
 */
const MIGRATIONS: readonly string[] = [
  `CREATE TABLE runs (
     run_id TEXT PRIMARY KEY,
     recipe TEXT NOT NULL,
     file TEXT NOT NULL,
     status TEXT NOT NULL,
     started_at INTEGER NOT NULL,
     ended_at INTEGER,
     attempts INTEGER NOT NULL DEFAULT 1,
     dry_run INTEGER NOT NULL DEFAULT 0,
     files TEXT NOT NULL,
     inputs TEXT NOT NULL,
     options TEXT NOT NULL,
     outputs TEXT,
     error TEXT,
     report TEXT,
     failed_call TEXT,
     idempotency TEXT,
     holder TEXT
   );
   CREATE INDEX runs_by_started ON runs (started_at DESC);
   CREATE INDEX runs_by_status ON runs (status, started_at DESC);
   CREATE INDEX runs_by_recipe ON runs (recipe, started_at DESC);
   CREATE TABLE attempts (
     run_id TEXT NOT NULL,
     attempt INTEGER NOT NULL,
     kind TEXT NOT NULL,
     started_at INTEGER NOT NULL,
     ended_at INTEGER,
     updated_at INTEGER NOT NULL,
     status TEXT NOT NULL,
     requests INTEGER NOT NULL DEFAULT 0,
     writes INTEGER NOT NULL DEFAULT 0,
     replayed_calls INTEGER NOT NULL DEFAULT 0,
     options TEXT NOT NULL,
     PRIMARY KEY (run_id, attempt)
   ) WITHOUT ROWID;
   CREATE TABLE exchanges (
     run_id TEXT NOT NULL,
     call_key TEXT NOT NULL,
     seq INTEGER NOT NULL,
     attempt INTEGER NOT NULL,
     step_path TEXT NOT NULL,
     file TEXT NOT NULL,
     line INTEGER NOT NULL,
     col INTEGER NOT NULL,
     pointer TEXT NOT NULL,
     kind TEXT NOT NULL,
     method TEXT NOT NULL,
     path TEXT NOT NULL,
     entity TEXT,
     action TEXT,
     write INTEGER NOT NULL,
     idempotency_key TEXT,
     request TEXT NOT NULL,
     state TEXT NOT NULL,
     status INTEGER,
     answer TEXT,
     error TEXT,
     doubt INTEGER NOT NULL DEFAULT 0,
     redacted INTEGER NOT NULL DEFAULT 0,
     retries INTEGER NOT NULL DEFAULT 0,
     sent_at INTEGER,
     latency_ms INTEGER,
     settled_by TEXT,
     PRIMARY KEY (run_id, call_key)
   );
   CREATE INDEX exchanges_by_seq ON exchanges (run_id, seq);
   CREATE TABLE steps (
     run_id TEXT NOT NULL,
     attempt INTEGER NOT NULL,
     step_path TEXT NOT NULL,
     seq INTEGER NOT NULL,
     step_id TEXT NOT NULL,
     kind TEXT NOT NULL,
     file TEXT NOT NULL,
     line INTEGER NOT NULL,
     col INTEGER NOT NULL,
     pointer TEXT NOT NULL,
     depth INTEGER NOT NULL,
     status TEXT NOT NULL,
     started_at INTEGER NOT NULL,
     duration_ms INTEGER,
     error_code TEXT,
     PRIMARY KEY (run_id, attempt, step_path)
   );
   CREATE INDEX steps_by_seq ON steps (run_id, seq);
   CREATE TABLE effects (
     run_id TEXT NOT NULL,
     name TEXT NOT NULL,
     attempt INTEGER NOT NULL,
     value TEXT NOT NULL,
     PRIMARY KEY (run_id, name)
   ) WITHOUT ROWID;`,
  // A part of a run held beside it (JournalStore.holdPart): its counters join the run's totals. Its own rows
  // because the run's attempt row is overwritten with the attempt's counters at every flush.
  `CREATE TABLE parts (
     run_id TEXT NOT NULL,
     part TEXT NOT NULL,
     requests INTEGER NOT NULL DEFAULT 0,
     writes INTEGER NOT NULL DEFAULT 0,
     replayed_calls INTEGER NOT NULL DEFAULT 0,
     PRIMARY KEY (run_id, part)
   ) WITHOUT ROWID;`,
  // `recipe cancel`: one request per run, for the attempt that was running when it was made.
  `CREATE TABLE cancels (
     run_id TEXT PRIMARY KEY,
     attempt INTEGER NOT NULL,
     reason TEXT,
     requested_at INTEGER NOT NULL
   ) WITHOUT ROWID;`,
];

/** True when the journal's schema is the one this code knows (a read-only opener cannot migrate). */
export function isCurrent(db: Database.Database): boolean {
  return (db.pragma('user_version', { simple: true }) as number) === MIGRATIONS.length;
}

/** Brings the journal's schema up to date (PRAGMA user_version counts the migrations applied). */
export function migrate(db: Database.Database): void {
  const version = db.pragma('user_version', { simple: true }) as number;
  if (version > MIGRATIONS.length)
    throw new Error(
      `the journal was written by a newer recipe (schema ${version}, this one knows ${MIGRATIONS.length})`,
    );
  if (version === MIGRATIONS.length) return;
  db.transaction(() => {
    // Another process may have migrated between the read above and this write lock.
    const now = db.pragma('user_version', { simple: true }) as number;
    for (let v = now; v < MIGRATIONS.length; v++) db.exec(MIGRATIONS[v] as string);
    db.pragma(`user_version = ${MIGRATIONS.length}`);
  }).immediate();
}
