import type {
  AttemptRecord,
  ExchangeRecord,
  RecipeFileHash,
  RunRecord,
  RunStatus,
  RunSummary,
  SettledBy,
  StepEventRecord,
} from '../types.js';

/** A row of `exchanges` as SQLite returns it. */
export interface ExchangeRow {
  run_id: string;
  call_key: string;
  seq: number;
  attempt: number;
  step_path: string;
  file: string;
  line: number;
  col: number;
  pointer: string;
  kind: string;
  method: string;
  path: string;
  entity: string | null;
  action: string | null;
  write: number;
  idempotency_key: string | null;
  request: string;
  state: ExchangeRecord['state'];
  status: number | null;
  answer: string | null;
  error: string | null;
  doubt: number;
  redacted: number;
  retries: number;
  sent_at: number | null;
  latency_ms: number | null;
  settled_by: string | null;
}

/** A row of `runs` joined with its attempts' sums. */
export interface RunRow {
  run_id: string;
  recipe: string;
  file: string;
  status: string;
  started_at: number;
  ended_at: number | null;
  attempts: number;
  dry_run: number;
  files: string;
  inputs: string;
  options: string;
  outputs: string | null;
  error: string | null;
  report: string | null;
  failed_call: string | null;
  idempotency: string | null;
  holder: string | null;
  requests: number | null;
  writes: number | null;
  duration_ms: number | null;
}

export interface AttemptRow {
  attempt: number;
  kind: AttemptRecord['kind'];
  started_at: number;
  ended_at: number | null;
  updated_at: number;
  status: string;
  requests: number;
  writes: number;
  replayed_calls: number;
  options: string;
}

export interface StepRow {
  seq: number;
  attempt: number;
  step_path: string;
  step_id: string;
  kind: string;
  file: string;
  line: number;
  col: number;
  pointer: string;
  depth: number;
  status: string;
  started_at: number;
  duration_ms: number | null;
  error_code: string | null;
}

const iso = (ms: number | null): string | null => (ms === null ? null : new Date(ms).toISOString());

export function toExchange(r: ExchangeRow): ExchangeRecord {
  return {
    call_key: r.call_key,
    seq: r.seq,
    attempt: r.attempt,
    step_path: r.step_path,
    file: r.file,
    line: r.line,
    column: r.col,
    pointer: r.pointer,
    kind: r.kind,
    method: r.method,
    path: r.path,
    entity: r.entity,
    action: r.action,
    write: r.write === 1,
    idempotency_key: r.idempotency_key,
    request: r.request,
    state: r.state,
    status: r.status,
    answer: r.answer,
    error: r.error,
    doubt: r.doubt === 1,
    redacted: r.redacted === 1,
    retries: r.retries,
    sent_at: iso(r.sent_at),
    latency_ms: r.latency_ms,
    settled_by: r.settled_by as SettledBy | null,
  };
}

/** `status` with `running` turned into `interrupted` when nobody holds the run. */
export function toSummary(r: RunRow, status: RunStatus): RunSummary {
  return {
    run_id: r.run_id,
    recipe: r.recipe,
    file: r.file,
    status,
    started_at: iso(r.started_at) as string,
    ended_at: iso(r.ended_at),
    duration_ms: r.duration_ms ?? 0,
    requests: r.requests ?? 0,
    writes: r.writes ?? 0,
    attempts: r.attempts,
    dry_run: r.dry_run === 1,
  };
}

export function toRun(r: RunRow, status: RunStatus, held: boolean): RunRecord {
  return {
    ...toSummary(r, status),
    files: JSON.parse(r.files) as RecipeFileHash[],
    inputs: JSON.parse(r.inputs) as Record<string, unknown>,
    options: JSON.parse(r.options) as Record<string, unknown>,
    outputs: r.outputs === null ? null : (JSON.parse(r.outputs) as Record<string, unknown>),
    error: r.error === null ? null : (JSON.parse(r.error) as Record<string, unknown>),
    report: r.report,
    failed_call: r.failed_call,
    idempotency: r.idempotency === 'honoured' ? 'honoured' : null,
    holder: held && r.holder !== null ? (JSON.parse(r.holder) as Record<string, unknown>) : null,
  };
}

export function toAttempt(r: AttemptRow, status: RunStatus): AttemptRecord {
  return {
    attempt: r.attempt,
    kind: r.kind,
    started_at: iso(r.started_at) as string,
    ended_at: iso(r.ended_at),
    status,
    requests: r.requests,
    writes: r.writes,
    replayed_calls: r.replayed_calls,
    options: JSON.parse(r.options) as Record<string, unknown>,
  };
}

export function toStep(r: StepRow): StepEventRecord {
  return {
    seq: r.seq,
    attempt: r.attempt,
    step_path: r.step_path,
    step_id: r.step_id,
    kind: r.kind,
    file: r.file,
    line: r.line,
    column: r.col,
    pointer: r.pointer,
    depth: r.depth,
    status: r.status,
    started_at: iso(r.started_at) as string,
    duration_ms: r.duration_ms,
    error_code: r.error_code,
  };
}
