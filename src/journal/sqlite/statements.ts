/**
 * The statements a held run appends with, by name: the in-thread writer and the writer thread prepare the
 * same ones. An append is `[name, ...parameters]`, plain data that can cross to a worker thread.
 */
export const APPEND_SQL = {
  exchange: `
    INSERT INTO exchanges (run_id, call_key, seq, attempt, step_path, file, line, col, pointer, kind, method, path,
      entity, action, write, idempotency_key, request, state, status, answer, error, doubt, redacted,
      retries, sent_at, latency_ms, settled_by)
    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
    ON CONFLICT (run_id, call_key) DO UPDATE SET seq = excluded.seq, attempt = excluded.attempt,
      step_path = excluded.step_path, file = excluded.file, line = excluded.line, col = excluded.col,
      pointer = excluded.pointer, kind = excluded.kind, method = excluded.method, path = excluded.path,
      entity = excluded.entity, action = excluded.action, write = excluded.write,
      idempotency_key = excluded.idempotency_key, request = excluded.request,
      state = excluded.state, status = excluded.status, answer = excluded.answer, error = excluded.error,
      doubt = excluded.doubt, redacted = excluded.redacted, retries = excluded.retries, sent_at = excluded.sent_at,
      latency_ms = excluded.latency_ms, settled_by = excluded.settled_by`,
  step: `
    INSERT INTO steps (run_id, attempt, step_path, seq, step_id, kind, file, line, col, pointer, depth, status,
      started_at, duration_ms, error_code)
    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
    ON CONFLICT (run_id, attempt, step_path) DO UPDATE SET seq = excluded.seq, status = excluded.status,
      duration_ms = excluded.duration_ms, error_code = excluded.error_code`,
  effect: `INSERT INTO effects (run_id, name, attempt, value) VALUES (?, ?, ?, ?)
    ON CONFLICT (run_id, name) DO UPDATE SET attempt = excluded.attempt, value = excluded.value`,
  progress:
    'UPDATE attempts SET requests = ?, writes = ?, replayed_calls = ?, updated_at = ? WHERE run_id = ? AND attempt = ?',
  touch: 'UPDATE attempts SET updated_at = ? WHERE run_id = ? AND attempt = ?',
  partProgress: `INSERT INTO parts (run_id, part, requests, writes, replayed_calls) VALUES (?, ?, ?, ?, ?)
    ON CONFLICT (run_id, part) DO UPDATE SET requests = excluded.requests, writes = excluded.writes,
      replayed_calls = excluded.replayed_calls`,
  honoured: `UPDATE runs SET idempotency = 'honoured' WHERE run_id = ?`,
  endAttempt: `UPDATE attempts SET ended_at = ?, updated_at = ?, status = ?, requests = ?, writes = ?, replayed_calls = ?
    WHERE run_id = ? AND attempt = ?`,
  endRun: `UPDATE runs SET status = ?, ended_at = ?, outputs = ?, error = ?, report = ?, failed_call = ?, holder = NULL
    WHERE run_id = ?`,
} as const;

export type AppendName = keyof typeof APPEND_SQL;

/** One append: a statement's name and its parameters (strings, numbers, null). */
export type Append = readonly [AppendName, ...(string | number | null)[]];
