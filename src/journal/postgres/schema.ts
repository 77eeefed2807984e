import type { SqlPool } from './client.js';

/** The schema the journal's tables live in unless told otherwise. */
export const DEFAULT_JOURNAL_SCHEMA = 'recipe_journal';

/**
 * A schema name we put into SQL text (identifiers cannot be parameters): lower-case letters, digits and _,
 * as PostgreSQL folds unquoted names, so `psql` users can type it without quotes.
 */
export function checkSchemaName(name: string): string {
  if (!/^[a-z_][a-z0-9_]{0,62}$/.test(name))
    throw new Error(
      `schema name "${name}": use lower-case letters, digits and _ (at most 63, not starting with a digit)`,
    );
  return name;
}

/**
 * The journal's tables, as numbered migrations: migration N is applied once, recorded in schema_version, in
 * order. The same tables as the SQLite backend (src/journal/sqlite/schema.ts), plus what a fleet sharing one
 * database needs: `runs.seq`, the run's order of events, taken by each append of whichever worker appends
 * (a run's part on another worker included), and `leases`, who holds a run or a part until when (locks.ts).
 * Times are epoch ms (bigint); texts the journal does not interpret (requests, answers, reports) are kept as
 * text, not jsonb, so they read back byte for byte as they were given. `{S}` stands for the schema's name.
 */
const MIGRATIONS: readonly string[] = [
  `CREATE TABLE {S}.runs (
     run_id text PRIMARY KEY,
     recipe text NOT NULL,
     file text NOT NULL,
     status text NOT NULL,
     started_at bigint NOT NULL,
     ended_at bigint,
     attempts integer NOT NULL DEFAULT 1,
     dry_run boolean NOT NULL DEFAULT false,
     files text NOT NULL,
     inputs text NOT NULL,
     options text NOT NULL,
     outputs text,
     error text,
     report text,
     failed_call text,
     idempotency text,
     holder text,
     seq bigint NOT NULL DEFAULT 0
   );
   CREATE INDEX runs_by_started ON {S}.runs (started_at DESC, run_id DESC);
   CREATE INDEX runs_by_status ON {S}.runs (status, started_at DESC, run_id DESC);
   CREATE INDEX runs_by_recipe ON {S}.runs (recipe, started_at DESC, run_id DESC);
   CREATE TABLE {S}.attempts (
     run_id text NOT NULL,
     attempt integer NOT NULL,
     kind text NOT NULL,
     started_at bigint NOT NULL,
     ended_at bigint,
     updated_at bigint NOT NULL,
     status text NOT NULL,
     requests bigint NOT NULL DEFAULT 0,
     writes bigint NOT NULL DEFAULT 0,
     replayed_calls bigint NOT NULL DEFAULT 0,
     options text NOT NULL,
     PRIMARY KEY (run_id, attempt)
   );
   CREATE TABLE {S}.exchanges (
     run_id text NOT NULL,
     call_key text NOT NULL,
     seq bigint NOT NULL,
     attempt integer NOT NULL,
     step_path text NOT NULL,
     file text NOT NULL,
     line integer NOT NULL,
     col integer NOT NULL,
     pointer text NOT NULL,
     kind text NOT NULL,
     method text NOT NULL,
     path text NOT NULL,
     entity text,
     action text,
     write boolean NOT NULL,
     idempotency_key text,
     request text NOT NULL,
     state text NOT NULL,
     status integer,
     answer text,
     error text,
     doubt boolean NOT NULL DEFAULT false,
     redacted boolean NOT NULL DEFAULT false,
     retries integer NOT NULL DEFAULT 0,
     sent_at bigint,
     latency_ms bigint,
     settled_by text,
     PRIMARY KEY (run_id, call_key)
   );
   CREATE INDEX exchanges_by_seq ON {S}.exchanges (run_id, seq);
   CREATE TABLE {S}.steps (
     run_id text NOT NULL,
     attempt integer NOT NULL,
     step_path text NOT NULL,
     seq bigint NOT NULL,
     step_id text NOT NULL,
     kind text NOT NULL,
     file text NOT NULL,
     line integer NOT NULL,
     col integer NOT NULL,
     pointer text NOT NULL,
     depth integer NOT NULL,
     status text NOT NULL,
     started_at bigint NOT NULL,
     duration_ms bigint,
     error_code text,
     PRIMARY KEY (run_id, attempt, step_path)
   );
   CREATE INDEX steps_by_seq ON {S}.steps (run_id, seq);
   CREATE TABLE {S}.effects (
     run_id text NOT NULL,
     name text NOT NULL,
     attempt integer NOT NULL,
     value text NOT NULL,
     PRIMARY KEY (run_id, name)
   );
   CREATE TABLE {S}.parts (
     run_id text NOT NULL,
     part text NOT NULL,
     requests bigint NOT NULL DEFAULT 0,
     writes bigint NOT NULL DEFAULT 0,
     replayed_calls bigint NOT NULL DEFAULT 0,
     PRIMARY KEY (run_id, part)
   );
   CREATE TABLE {S}.leases (
     run_id text NOT NULL,
     part text NOT NULL,
     token text NOT NULL,
     expires_at timestamptz NOT NULL,
     PRIMARY KEY (run_id, part)
   );`,
];

/** The schema version this code writes and reads. */
export const SCHEMA_VERSION = MIGRATIONS.length;

/**
 * Brings the journal's schema up to date, at open. Several workers may start at once: the whole migration is
 * one transaction under a transaction-scoped advisory lock keyed by the schema's name, so one applies each
 * missing migration and the others, waiting on the lock, then find nothing left to do. Idempotent: a journal
 * already current costs one short transaction. A journal written by a newer recipe is refused, not touched.
 */
export async function migrate(pool: SqlPool, schema: string): Promise<void> {
  await pool.transaction(async (tx) => {
    // hashtext(): the lock's key from the schema's name, so journals in other schemas migrate side by side.
    await tx.query(`SELECT pg_advisory_xact_lock(hashtext('recipe journal migrations: ' || $1))`, [schema]);
    await tx.query(`CREATE SCHEMA IF NOT EXISTS ${schema}`);
    await tx.query(
      `CREATE TABLE IF NOT EXISTS ${schema}.schema_version (
         version integer PRIMARY KEY,
         applied_at timestamptz NOT NULL DEFAULT now()
       )`,
    );
    const { rows } = await tx.query<{ v: number | null }>(`SELECT max(version) AS v FROM ${schema}.schema_version`);
    const current = rows[0]?.v ?? 0;
    if (current > MIGRATIONS.length)
      throw new Error(
        `the journal's schema ${schema} was written by a newer recipe (version ${current}, this one knows ${MIGRATIONS.length})`,
      );
    for (let v = current; v < MIGRATIONS.length; v++) {
      await tx.query((MIGRATIONS[v] as string).replaceAll('{S}.', `${schema}.`));
      await tx.query(`INSERT INTO ${schema}.schema_version (version) VALUES ($1)`, [v + 1]);
    }
  });
}
