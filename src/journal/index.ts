/**
 * journal/: the run journal (record, replay, history); an interface (types.ts) with three backends behind it:
 * SQLite (sqlite/, one machine), Redis (redis/, a fleet of workers; the caller brings the connection) and
 * PostgreSQL (postgres/, a fleet of workers on one database; openPostgresJournal(url), `pg` used only there).
 *
 * For the parts built on it:
 * - run/ records through RunJournal (from JournalStore.begin/resume) at its one call point
 *   (calls/call-service.ts); it owns call keys, masking and what to replay. A new step that sends requests
 *   describes them as a ServiceCall there and is journaled and replayed like execute.
 * - a fleet of workers implements JournalStore on a shared database (PostgreSQL, Redis): `resume` must refuse
 *   a run another live worker holds (J003) and let go of one whose worker died (a lease, an advisory lock),
 *   `RunStatus` 'interrupted' is "running, held by nobody", and appends may be asynchronous as long as
 *   `intend` resolves only once durable. A distributed foreach's chunks journal through `holdPart`, and a
 *   worker taking over a dead one's run waits `leaseMs` at most.
 * - a console reads through JournalReader only (openJournalReader: no file created, nothing written): listRuns (newest first, by status/recipe,
 *   paged with `before` = the last row of the previous page), getRun (inputs,
 *   outputs, error with file:line, the report), listAttempts (resumes), listSteps and listExchanges (step
 *   events and calls with status, latency, retries, writes and dry-run writes; follow a running run by
 *   polling with `after_seq` = the last `seq` seen), writesInDoubt, getEffects.
 */
export type {
  HeldLease,
  AttemptCounters,
  AttemptRecord,
  AttemptStart,
  CallEntry,
  CallOutcome,
  CancelRequest,
  ExchangeRecord,
  ExchangeState,
  JournalReader,
  JournalStore,
  RecipeFileHash,
  RecordedSite,
  RunEnd,
  RunCursor,
  RunFilter,
  RunJournal,
  RunRecord,
  RunStart,
  RunStatus,
  RunSummary,
  SeqRange,
  SettledBy,
  StepEvent,
  StepEventRecord,
} from './types.js';
export type { RedisCommands } from './redis/client.js';
export { RedisJournalStore, type RedisJournalOptions } from './redis/store.js';
export { PostgresJournalStore, type PostgresJournalOptions } from './postgres/store.js';
export { DEFAULT_JOURNAL_SCHEMA } from './postgres/schema.js';
export {
  describePostgresUrl,
  isPostgresUrl,
  openSqlPool,
  type SqlPool,
  type SqlPoolOptions,
  type SqlQuery,
} from './postgres/client.js';
export {
  DEFAULT_JOURNAL,
  JOURNAL_ENV,
  isJournalUrl,
  journalPath,
  openJournal,
  openJournalReader,
  openPostgresJournal,
} from './open.js';
