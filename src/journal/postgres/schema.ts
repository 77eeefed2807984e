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
  // 2: a batch of appends as one call (one round trip and one commit): the lease first, checked and extended,
  // then the batch's numbers from runs.seq, then the rows. false, with nothing written, when the lease was lost.
  `CREATE FUNCTION {S}.append_batch(p_run text, p_part text, p_token text, p_lease_ms bigint, p_attempt integer,
     p_events bigint, p_exchanges jsonb, p_steps jsonb, p_effects jsonb, p_honoured boolean, p_counters jsonb,
     p_now bigint, p_ending jsonb) RETURNS boolean LANGUAGE plpgsql AS $fn$
   DECLARE
     v_base bigint := 0;
   BEGIN
     -- Acknowledged means on disk, whatever the server's or the role's default: for this transaction only.
     PERFORM set_config('synchronous_commit', 'on', true);
     UPDATE {S}.leases SET expires_at = clock_timestamp() + p_lease_ms * interval '1 millisecond'
       WHERE run_id = p_run AND part = p_part AND token = p_token AND expires_at > clock_timestamp();
     IF NOT FOUND THEN
       RETURN false;
     END IF;
     IF p_events > 0 THEN
       UPDATE {S}.runs SET seq = seq + p_events WHERE run_id = p_run RETURNING seq - p_events INTO v_base;
     END IF;
     IF p_exchanges IS NOT NULL THEN
       INSERT INTO {S}.exchanges (run_id, call_key, seq, attempt, step_path, file, line, col, pointer, kind,
         method, path, entity, action, write, idempotency_key, request, state, status, answer, error, doubt,
         redacted, retries, sent_at, latency_ms, settled_by)
       SELECT p_run, x.call_key, v_base + x.i, x.attempt, x.step_path, x.file, x.line, x.col, x.pointer, x.kind,
         x.method, x.path, x.entity, x.action, x.write, x.idempotency_key, x.request, x.state, x.status, x.answer,
         x.error, x.doubt, x.redacted, x.retries, x.sent_at, x.latency_ms, x.settled_by
       FROM jsonb_to_recordset(p_exchanges) AS x(i bigint, call_key text, attempt integer, step_path text,
         file text, line integer, col integer, pointer text, kind text, method text, path text, entity text,
         action text, write boolean, idempotency_key text, request text, state text, status integer,
         answer text, error text, doubt boolean, redacted boolean, retries integer, sent_at bigint,
         latency_ms double precision, settled_by text)
       ON CONFLICT (run_id, call_key) DO UPDATE SET seq = excluded.seq, attempt = excluded.attempt,
         step_path = excluded.step_path, file = excluded.file, line = excluded.line, col = excluded.col,
         pointer = excluded.pointer, kind = excluded.kind, method = excluded.method, path = excluded.path,
         entity = excluded.entity, action = excluded.action, write = excluded.write,
         idempotency_key = excluded.idempotency_key, request = excluded.request, state = excluded.state,
         status = excluded.status, answer = excluded.answer, error = excluded.error, doubt = excluded.doubt,
         redacted = excluded.redacted, retries = excluded.retries, sent_at = excluded.sent_at,
         latency_ms = excluded.latency_ms, settled_by = excluded.settled_by;
     END IF;
     IF p_steps IS NOT NULL THEN
       INSERT INTO {S}.steps (run_id, attempt, step_path, seq, step_id, kind, file, line, col, pointer, depth,
         status, started_at, duration_ms, error_code)
       SELECT p_run, x.attempt, x.step_path, v_base + x.i, x.step_id, x.kind, x.file, x.line, x.col, x.pointer,
         x.depth, x.status, x.started_at, x.duration_ms, x.error_code
       FROM jsonb_to_recordset(p_steps) AS x(i bigint, attempt integer, step_path text, step_id text, kind text,
         file text, line integer, col integer, pointer text, depth integer, status text, started_at bigint,
         duration_ms double precision, error_code text)
       ON CONFLICT (run_id, attempt, step_path) DO UPDATE SET seq = excluded.seq, status = excluded.status,
         duration_ms = excluded.duration_ms, error_code = excluded.error_code;
     END IF;
     IF p_effects IS NOT NULL THEN
       INSERT INTO {S}.effects (run_id, name, attempt, value)
       SELECT p_run, x.name, x.attempt, x.value
       FROM jsonb_to_recordset(p_effects) AS x(name text, attempt integer, value text)
       ON CONFLICT (run_id, name) DO UPDATE SET attempt = excluded.attempt, value = excluded.value;
     END IF;
     IF p_honoured THEN
       UPDATE {S}.runs SET idempotency = 'honoured' WHERE run_id = p_run;
     END IF;
     IF p_counters IS NOT NULL AND p_part <> '' THEN
       INSERT INTO {S}.parts (run_id, part, requests, writes, replayed_calls)
       VALUES (p_run, p_part, (p_counters->>'requests')::bigint, (p_counters->>'writes')::bigint,
         (p_counters->>'replayed_calls')::bigint)
       ON CONFLICT (run_id, part) DO UPDATE SET requests = excluded.requests, writes = excluded.writes,
         replayed_calls = excluded.replayed_calls;
     ELSIF p_counters IS NOT NULL THEN
       UPDATE {S}.attempts SET requests = (p_counters->>'requests')::bigint,
         writes = (p_counters->>'writes')::bigint, replayed_calls = (p_counters->>'replayed_calls')::bigint,
         updated_at = p_now
       WHERE run_id = p_run AND attempt = p_attempt;
     ELSIF p_part = '' AND p_ending IS NULL THEN
       UPDATE {S}.attempts SET updated_at = p_now WHERE run_id = p_run AND attempt = p_attempt;
     END IF;
     IF p_ending IS NOT NULL THEN
       UPDATE {S}.attempts SET ended_at = (p_ending->>'ended_at')::bigint, updated_at = (p_ending->>'ended_at')::bigint,
         status = p_ending->>'status', requests = (p_ending->>'requests')::bigint,
         writes = (p_ending->>'writes')::bigint, replayed_calls = (p_ending->>'replayed_calls')::bigint
       WHERE run_id = p_run AND attempt = p_attempt;
       UPDATE {S}.runs SET status = p_ending->>'status', ended_at = (p_ending->>'ended_at')::bigint,
         outputs = p_ending->>'outputs', error = p_ending->>'error', report = p_ending->>'report',
         failed_call = p_ending->>'failed_call', holder = NULL
       WHERE run_id = p_run;
       DELETE FROM {S}.leases WHERE run_id = p_run AND part = p_part AND token = p_token;
     END IF;
     RETURN true;
   END
   $fn$;`,
  // 3: cancel requests (recipe cancel): one per run, for the attempt that was running when it was made.
  `CREATE TABLE {S}.cancels (
     run_id text PRIMARY KEY,
     attempt integer NOT NULL,
     reason text,
     requested_at bigint NOT NULL
   );`,
  // 4: parts folded into their run's attempt (a distributed foreach gathered them, and the attempt now carries
  // their counters): a run's totals skip them, so they count once. A part that writes its counters again (its
  // chunk runs again in a later attempt) counts again until that attempt folds it: the trigger unfolds it, as
  // the Redis backend's append overwrites the folded mark. (append_batch's upsert names the counter columns;
  // foldParts sets only `folded`, so it does not fire the trigger.)
  `ALTER TABLE {S}.parts ADD COLUMN folded boolean NOT NULL DEFAULT false;
   CREATE FUNCTION {S}.unfold_part() RETURNS trigger LANGUAGE plpgsql AS $fn$
   BEGIN
     NEW.folded := false;
     RETURN NEW;
   END
   $fn$;
   CREATE TRIGGER parts_unfold BEFORE UPDATE OF requests, writes, replayed_calls ON {S}.parts
     FOR EACH ROW EXECUTE FUNCTION {S}.unfold_part();`,
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
  await applyMigrations(pool, schema, MIGRATIONS, `recipe journal migrations: ${schema}`);
}

/**
 * The versioned migrations of one schema of ours (the journal's, and the fleet's own: src/fleet/postgres.ts):
 * migration N (1-based: `migrations[N - 1]`, `{S}.` standing for the schema) is applied once, in order, and
 * recorded in the schema's schema_version, all in one transaction under an advisory lock on
 * hashtext(`lockKey`), so that processes starting at once apply each one once. A schema whose version is newer
 * than `migrations` knows is refused (written by a newer recipe), not touched.
 */
export async function applyMigrations(
  pool: SqlPool,
  schema: string,
  migrations: readonly string[],
  lockKey: string,
): Promise<void> {
  checkSchemaName(schema);
  await pool.transaction(async (tx) => {
    // hashtext(): the lock's key from a name, so schemas of other names migrate side by side.
    await tx.query(`SELECT pg_advisory_xact_lock(hashtext($1))`, [lockKey]);
    await tx.query(`CREATE SCHEMA IF NOT EXISTS ${schema}`);
    await tx.query(
      `CREATE TABLE IF NOT EXISTS ${schema}.schema_version (
         version integer PRIMARY KEY,
         applied_at timestamptz NOT NULL DEFAULT now()
       )`,
    );
    const { rows } = await tx.query<{ v: number | null }>(`SELECT max(version) AS v FROM ${schema}.schema_version`);
    const current = rows[0]?.v ?? 0;
    if (current > migrations.length)
      throw new Error(
        `the schema ${schema} was written by a newer recipe (version ${current}, this one knows ${migrations.length})`,
      );
    for (let v = current; v < migrations.length; v++) {
      await tx.query((migrations[v] as string).replaceAll('{S}.', `${schema}.`));
      await tx.query(`INSERT INTO ${schema}.schema_version (version) VALUES ($1)`, [v + 1]);
    }
  });
}
