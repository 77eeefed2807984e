/**
 * The journal's statements on PostgreSQL, for one schema (identifiers cannot be parameters: the schema's name
 * is checked by checkSchemaName before it gets here). Batched appends are one statement per table: the rows
 * travel as one JSON array parameter, unpacked by jsonb_to_recordset, so a batch of 2,000 appends is a handful
 * of round trips, not 2,000. `$base + i` numbers a batch's events after the run's last seq.
 *
 * Every lease comparison uses clock_timestamp(), the database's clock at that moment: every worker measures
 * a lease against the same clock, whatever its own says (see locks.ts).
 */
export function statementsFor(s: string) {
  const liveLease = (run: string, part: string): string =>
    `EXISTS (SELECT 1 FROM ${s}.leases l WHERE l.run_id = ${run} AND l.part = ${part} AND l.expires_at > clock_timestamp())`;
  return {
    // ---- leases (locks.ts) ----
    /** Takes (run_id, part) for token $3 for $4 ms, unless someone holds it unexpired; returns a row when taken. */
    takeLease: `INSERT INTO ${s}.leases (run_id, part, token, expires_at)
      VALUES ($1, $2, $3, clock_timestamp() + $4 * interval '1 millisecond')
      ON CONFLICT (run_id, part) DO UPDATE SET token = excluded.token, expires_at = excluded.expires_at
        WHERE ${s}.leases.expires_at <= clock_timestamp()
      RETURNING token`,
    /**
     * Extends a lease still held by token $3 (and not yet run out); no row when it was lost. The row stays
     * locked until the transaction ends: a worker taking the run over waits for this one's batch to commit,
     * then finds the lease extended.
     */
    renewLease: `UPDATE ${s}.leases SET expires_at = clock_timestamp() + $4 * interval '1 millisecond'
      WHERE run_id = $1 AND part = $2 AND token = $3 AND expires_at > clock_timestamp()`,
    releaseLease: `DELETE FROM ${s}.leases WHERE run_id = $1 AND part = $2 AND token = $3`,

    // ---- taking hold (store.ts) ----
    insertRun: `INSERT INTO ${s}.runs (run_id, recipe, file, status, started_at, attempts, dry_run, files, inputs, options, holder)
      VALUES ($1, $2, $3, 'running', $4, 1, $5, $6, $7, $8, $9)
      ON CONFLICT (run_id) DO NOTHING RETURNING run_id`,
    insertAttempt: `INSERT INTO ${s}.attempts (run_id, attempt, kind, started_at, updated_at, status, options)
      VALUES ($1, $2, $3, $4, $4, 'running', $5)`,
    lockRun: `SELECT attempts, holder FROM ${s}.runs WHERE run_id = $1 FOR UPDATE`,
    resumeRun: `UPDATE ${s}.runs SET status = 'running', attempts = $2, ended_at = NULL, report = NULL, holder = $3
      WHERE run_id = $1`,
    runAttempts: `SELECT attempts FROM ${s}.runs WHERE run_id = $1`,

    // ---- appends (run-journal.ts), in one transaction after renewLease ----
    takeSeqs: `UPDATE ${s}.runs SET seq = seq + $2 WHERE run_id = $1 RETURNING seq - $2 AS base`,
    exchanges: `INSERT INTO ${s}.exchanges (run_id, call_key, seq, attempt, step_path, file, line, col, pointer, kind,
        method, path, entity, action, write, idempotency_key, request, state, status, answer, error, doubt, redacted,
        retries, sent_at, latency_ms, settled_by)
      SELECT $1, x.call_key, $2 + x.i, x.attempt, x.step_path, x.file, x.line, x.col, x.pointer, x.kind, x.method,
        x.path, x.entity, x.action, x.write, x.idempotency_key, x.request, x.state, x.status, x.answer, x.error,
        x.doubt, x.redacted, x.retries, x.sent_at, x.latency_ms, x.settled_by
      FROM jsonb_to_recordset($3::jsonb) AS x(i bigint, call_key text, attempt integer, step_path text, file text,
        line integer, col integer, pointer text, kind text, method text, path text, entity text, action text,
        write boolean, idempotency_key text, request text, state text, status integer, answer text, error text,
        doubt boolean, redacted boolean, retries integer, sent_at bigint, latency_ms double precision, settled_by text)
      ON CONFLICT (run_id, call_key) DO UPDATE SET seq = excluded.seq, attempt = excluded.attempt,
        step_path = excluded.step_path, file = excluded.file, line = excluded.line, col = excluded.col,
        pointer = excluded.pointer, kind = excluded.kind, method = excluded.method, path = excluded.path,
        entity = excluded.entity, action = excluded.action, write = excluded.write,
        idempotency_key = excluded.idempotency_key, request = excluded.request, state = excluded.state,
        status = excluded.status, answer = excluded.answer, error = excluded.error, doubt = excluded.doubt,
        redacted = excluded.redacted, retries = excluded.retries, sent_at = excluded.sent_at,
        latency_ms = excluded.latency_ms, settled_by = excluded.settled_by`,
    steps: `INSERT INTO ${s}.steps (run_id, attempt, step_path, seq, step_id, kind, file, line, col, pointer, depth,
        status, started_at, duration_ms, error_code)
      SELECT $1, x.attempt, x.step_path, $2 + x.i, x.step_id, x.kind, x.file, x.line, x.col, x.pointer, x.depth,
        x.status, x.started_at, x.duration_ms, x.error_code
      FROM jsonb_to_recordset($3::jsonb) AS x(i bigint, attempt integer, step_path text, step_id text, kind text,
        file text, line integer, col integer, pointer text, depth integer, status text, started_at bigint,
        duration_ms double precision, error_code text)
      ON CONFLICT (run_id, attempt, step_path) DO UPDATE SET seq = excluded.seq, status = excluded.status,
        duration_ms = excluded.duration_ms, error_code = excluded.error_code`,
    effects: `INSERT INTO ${s}.effects (run_id, name, attempt, value)
      SELECT $1, x.name, x.attempt, x.value FROM jsonb_to_recordset($2::jsonb) AS x(name text, attempt integer, value text)
      ON CONFLICT (run_id, name) DO UPDATE SET attempt = excluded.attempt, value = excluded.value`,
    progress: `UPDATE ${s}.attempts SET requests = $3, writes = $4, replayed_calls = $5, updated_at = $6
      WHERE run_id = $1 AND attempt = $2`,
    touch: `UPDATE ${s}.attempts SET updated_at = $3 WHERE run_id = $1 AND attempt = $2`,
    partProgress: `INSERT INTO ${s}.parts (run_id, part, requests, writes, replayed_calls) VALUES ($1, $2, $3, $4, $5)
      ON CONFLICT (run_id, part) DO UPDATE SET requests = excluded.requests, writes = excluded.writes,
        replayed_calls = excluded.replayed_calls`,
    honoured: `UPDATE ${s}.runs SET idempotency = 'honoured' WHERE run_id = $1`,
    endAttempt: `UPDATE ${s}.attempts SET ended_at = $3, updated_at = $3, status = $4, requests = $5, writes = $6,
        replayed_calls = $7
      WHERE run_id = $1 AND attempt = $2`,
    endRun: `UPDATE ${s}.runs SET status = $2, ended_at = $3, outputs = $4, error = $5, report = $6, failed_call = $7,
        holder = NULL
      WHERE run_id = $1`,

    // ---- reads (store.ts, run-journal.ts) ----
    /**
     * A run with what history shows: `shown`, its status with `running` turned into `interrupted` when nobody
     * holds it (no live lease), and its counters, its attempts' sums plus its parts'. Correlated, so only the
     * rows a listing returns pay for them.
     */
    runColumns: `r.*,
      CASE WHEN r.status = 'running' AND NOT ${liveLease('r.run_id', "''")} THEN 'interrupted' ELSE r.status END AS shown,
      ((SELECT COALESCE(SUM(a.requests), 0) FROM ${s}.attempts a WHERE a.run_id = r.run_id)
        + (SELECT COALESCE(SUM(p.requests), 0) FROM ${s}.parts p WHERE p.run_id = r.run_id))::bigint AS requests,
      ((SELECT COALESCE(SUM(a.writes), 0) FROM ${s}.attempts a WHERE a.run_id = r.run_id)
        + (SELECT COALESCE(SUM(p.writes), 0) FROM ${s}.parts p WHERE p.run_id = r.run_id))::bigint AS writes,
      (SELECT COALESCE(SUM(COALESCE(a.ended_at, a.updated_at) - a.started_at), 0) FROM ${s}.attempts a
        WHERE a.run_id = r.run_id)::bigint AS duration_ms`,
    runHeld: `SELECT ${liveLease('$1', "''")} AS held`,
    attempts: `SELECT * FROM ${s}.attempts WHERE run_id = $1 ORDER BY attempt`,
    stepsAfter: `SELECT * FROM ${s}.steps WHERE run_id = $1 AND seq > $2 ORDER BY seq LIMIT $3`,
    exchangesAfter: `SELECT * FROM ${s}.exchanges WHERE run_id = $1 AND seq > $2 ORDER BY seq LIMIT $3`,
    writesAfter: `SELECT * FROM ${s}.exchanges WHERE run_id = $1 AND seq > $2 AND write ORDER BY seq LIMIT $3`,
    exchange: `SELECT * FROM ${s}.exchanges WHERE run_id = $1 AND call_key = $2`,
    writeFlags: `SELECT seq, state, doubt, redacted FROM ${s}.exchanges WHERE run_id = $1 AND write ORDER BY seq`,
    exchangesBySeq: `SELECT * FROM ${s}.exchanges WHERE run_id = $1 AND seq = ANY($2::bigint[]) ORDER BY seq`,
    effectsOf: `SELECT name, value FROM ${s}.effects WHERE run_id = $1`,

    // ---- pruning (store.ts) ----
    /** Runs that ended before $1, or never ended, started before it and are held by nobody; locked for deletion. */
    prunable: `SELECT r.run_id FROM ${s}.runs r
      WHERE (r.ended_at IS NOT NULL AND r.ended_at < $1)
         OR (r.status = 'running' AND r.started_at < $1 AND NOT ${liveLease('r.run_id', "''")})
      FOR UPDATE SKIP LOCKED`,
    pruneTables: ['exchanges', 'steps', 'effects', 'parts', 'attempts', 'leases', 'runs'].map(
      (t) => `DELETE FROM ${s}.${t} WHERE run_id = ANY($1::text[])`,
    ),
  } as const;
}

export type Statements = ReturnType<typeof statementsFor>;
