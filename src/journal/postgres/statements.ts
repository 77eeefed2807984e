/**
 * The journal's statements on PostgreSQL, for one schema (identifiers cannot be parameters: the schema's name
 * is checked by checkSchemaName before it gets here). A batch of appends is one call of append_batch, a
 * function the migrations create (schema.ts): its rows travel as JSON array parameters, unpacked by
 * jsonb_to_recordset, so a batch of 2,000 appends is one round trip and one commit.
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
     * Extends a lease still held by token $3 (and not yet run out); no row when it was lost. (append_batch,
     * schema.ts, does the same first thing in each batch: the row stays locked until the batch commits, so a
     * worker taking the run over waits for it, then finds the lease extended.)
     */
    renewLease: `UPDATE ${s}.leases SET expires_at = clock_timestamp() + $4 * interval '1 millisecond'
      WHERE run_id = $1 AND part = $2 AND token = $3 AND expires_at > clock_timestamp()`,
    releaseLease: `DELETE FROM ${s}.leases WHERE run_id = $1 AND part = $2 AND token = $3`,
    /** The leases live now, with the ms left on each and, for a run's own lease, its holder (`fleet status`). */
    liveLeases: `SELECT l.run_id, l.part, CASE WHEN l.part = '' THEN r.holder END AS holder,
        GREATEST(0, floor(extract(epoch FROM l.expires_at - clock_timestamp()) * 1000))::bigint AS expires_in_ms
      FROM ${s}.leases l LEFT JOIN ${s}.runs r ON r.run_id = l.run_id
      WHERE l.expires_at > clock_timestamp()`,

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
    /**
     * Marks parts $2 of run $1 folded (one statement, so all or none): a part not written yet gets a row of zeros
     * marked folded, as the Redis backend's FOLD_PARTS does.
     */
    foldParts: `INSERT INTO ${s}.parts (run_id, part, folded) SELECT $1, p, true FROM unnest($2::text[]) AS p
      ON CONFLICT (run_id, part) DO UPDATE SET folded = true`,

    // ---- appends (run-journal.ts) ----
    /**
     * A batch as one call of the schema's append_batch (schema.ts, migration 2): one round trip, one commit.
     * ok is false, and nothing written, when the lease was lost.
     */
    appendBatch: `SELECT ${s}.append_batch($1, $2, $3, $4, $5, $6, $7::jsonb, $8::jsonb, $9::jsonb, $10, $11::jsonb,
      $12, $13::jsonb) AS ok`,

    // ---- reads (store.ts, run-journal.ts) ----
    /**
     * A run with what history shows: `shown`, its status with `running` turned into `interrupted` when nobody
     * holds it (no live lease), and its counters, its attempts' sums plus its parts' not folded into an attempt
     * (foldParts). Correlated, so only the
     * rows a listing returns pay for them.
     */
    runColumns: `r.*,
      CASE WHEN r.status = 'running' AND NOT ${liveLease('r.run_id', "''")} THEN 'interrupted' ELSE r.status END AS shown,
      ((SELECT COALESCE(SUM(a.requests), 0) FROM ${s}.attempts a WHERE a.run_id = r.run_id)
        + (SELECT COALESCE(SUM(p.requests), 0) FROM ${s}.parts p WHERE p.run_id = r.run_id AND NOT p.folded))::bigint AS requests,
      ((SELECT COALESCE(SUM(a.writes), 0) FROM ${s}.attempts a WHERE a.run_id = r.run_id)
        + (SELECT COALESCE(SUM(p.writes), 0) FROM ${s}.parts p WHERE p.run_id = r.run_id AND NOT p.folded))::bigint AS writes,
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
      ORDER BY r.started_at LIMIT $2
      FOR UPDATE SKIP LOCKED`,
    cancel: `SELECT reason, requested_at, attempt FROM ${s}.cancels WHERE run_id = $1 AND attempt = $2`,
    requestCancel: `INSERT INTO ${s}.cancels (run_id, attempt, reason, requested_at) VALUES ($1, $2, $3, $4)
      ON CONFLICT (run_id) DO UPDATE SET attempt = excluded.attempt, reason = excluded.reason,
        requested_at = excluded.requested_at`,
    dropReadAnswers: `UPDATE ${s}.exchanges SET answer = NULL WHERE run_id = $1 AND NOT write AND answer IS NOT NULL`,
    pruneTables: ['exchanges', 'steps', 'effects', 'parts', 'cancels', 'attempts', 'leases', 'runs'].map(
      (t) => `DELETE FROM ${s}.${t} WHERE run_id = ANY($1::text[])`,
    ),
  } as const;
}

export type Statements = ReturnType<typeof statementsFor>;
