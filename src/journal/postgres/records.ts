import type { PathCodec } from '../path-codec.js';
import type {
  AttemptRecord,
  CallEntry,
  CallOutcome,
  ExchangeRecord,
  RecipeFileHash,
  RunRecord,
  RunStatus,
  RunSummary,
  SettledBy,
  StepEvent,
  StepEventRecord,
} from '../types.js';

/**
 * The journal's rows on PostgreSQL ⇄ the journal's types. Recipe paths go through the PathCodec (relative to
 * the recipes directory when under it), so every worker of a fleet reads them as its own.
 */

/** A row of `exchanges` as node-postgres returns it (bigint as number, see client.ts). */
export interface ExchangeRow {
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
  write: boolean;
  idempotency_key: string | null;
  request: string;
  state: ExchangeRecord['state'];
  status: number | null;
  answer: string | null;
  error: string | null;
  doubt: boolean;
  redacted: boolean;
  retries: number;
  sent_at: number | null;
  latency_ms: number | null;
  settled_by: string | null;
}

/** A row of `runs` with runColumns' additions (statements.ts). */
export interface RunRow {
  run_id: string;
  recipe: string;
  file: string;
  status: string;
  shown: RunStatus;
  started_at: number;
  ended_at: number | null;
  attempts: number;
  dry_run: boolean;
  files: string;
  inputs: string;
  options: string;
  outputs: string | null;
  error: string | null;
  report: string | null;
  failed_call: string | null;
  idempotency: string | null;
  holder: string | null;
  requests: number;
  writes: number;
  duration_ms: number;
}

export interface AttemptRow {
  attempt: number;
  kind: AttemptRecord['kind'];
  started_at: number;
  ended_at: number | null;
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

/** An exchange as a batch sends it (`i`: its place in the batch, numbered after the run's last seq). */
export type ExchangeInput = Omit<ExchangeRow, 'seq'> & { i: number };
/** A step event as a batch sends it. */
export type StepInput = Omit<StepRow, 'seq'> & { i: number };

const iso = (ms: number | null): string | null => (ms === null ? null : new Date(ms).toISOString());
/** Epoch ms as stored (bigint): whole milliseconds. */
export const wholeMs = (ms: number): number => Math.round(ms);

export function exchangeInput(
  paths: PathCodec,
  attempt: number,
  call: CallEntry,
  outcome: CallOutcome | null,
  i: number,
): ExchangeInput {
  return {
    i,
    call_key: call.call_key,
    attempt,
    step_path: call.step_path,
    file: paths.store(call.file),
    line: call.line,
    col: call.column,
    pointer: call.pointer,
    kind: call.kind,
    method: call.method,
    path: call.path,
    entity: call.entity,
    action: call.action,
    write: call.write,
    idempotency_key: call.idempotency_key,
    request: call.request,
    state: outcome?.state ?? 'intent',
    status: outcome?.status ?? null,
    answer: outcome?.answer ?? null,
    error: outcome?.error ?? null,
    doubt: outcome?.doubt ?? false,
    redacted: outcome?.redacted ?? false,
    retries: outcome?.retries ?? 0,
    sent_at: outcome?.sent_at === null || outcome?.sent_at === undefined ? null : wholeMs(outcome.sent_at),
    latency_ms: outcome?.latency_ms ?? null,
    settled_by: outcome?.settled_by ?? null,
  };
}

export function stepInput(paths: PathCodec, attempt: number, e: StepEvent, i: number): StepInput {
  return {
    i,
    attempt,
    step_path: e.step_path,
    step_id: e.step_id,
    kind: e.kind,
    file: paths.store(e.file),
    line: e.line,
    col: e.column,
    pointer: e.pointer,
    depth: e.depth,
    status: e.status,
    started_at: wholeMs(e.started_at),
    duration_ms: e.duration_ms,
    error_code: e.error_code,
  };
}

export function toExchange(paths: PathCodec, r: ExchangeRow): ExchangeRecord {
  return {
    call_key: r.call_key,
    seq: r.seq,
    attempt: r.attempt,
    step_path: r.step_path,
    file: paths.load(r.file),
    line: r.line,
    column: r.col,
    pointer: r.pointer,
    kind: r.kind,
    method: r.method,
    path: r.path,
    entity: r.entity,
    action: r.action,
    write: r.write,
    idempotency_key: r.idempotency_key,
    request: r.request,
    state: r.state,
    status: r.status,
    answer: r.answer,
    error: r.error,
    doubt: r.doubt,
    redacted: r.redacted,
    retries: r.retries,
    sent_at: iso(r.sent_at),
    latency_ms: r.latency_ms,
    settled_by: r.settled_by as SettledBy | null,
  };
}

export function toSummary(paths: PathCodec, r: RunRow): RunSummary {
  return {
    run_id: r.run_id,
    recipe: r.recipe,
    file: paths.load(r.file),
    status: r.shown,
    started_at: iso(r.started_at) as string,
    ended_at: iso(r.ended_at),
    duration_ms: r.duration_ms,
    requests: r.requests,
    writes: r.writes,
    attempts: r.attempts,
    dry_run: r.dry_run,
  };
}

export function toRun(paths: PathCodec, r: RunRow): RunRecord {
  const held = r.shown === 'running';
  return {
    ...toSummary(paths, r),
    files: (JSON.parse(r.files) as RecipeFileHash[]).map((f) => ({ ...f, path: paths.load(f.path) })),
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

/** `held`: the run's lease is live, so its last attempt, if it has not ended, is running (else interrupted). */
export function toAttempts(rows: readonly AttemptRow[], held: boolean): AttemptRecord[] {
  const last = rows[rows.length - 1]?.attempt;
  return rows.map((r) => ({
    attempt: r.attempt,
    kind: r.kind,
    started_at: iso(r.started_at) as string,
    ended_at: iso(r.ended_at),
    status: r.status !== 'running' ? (r.status as RunStatus) : held && r.attempt === last ? 'running' : 'interrupted',
    requests: r.requests,
    writes: r.writes,
    replayed_calls: r.replayed_calls,
    options: JSON.parse(r.options) as Record<string, unknown>,
  }));
}

export function toStep(paths: PathCodec, r: StepRow): StepEventRecord {
  return {
    seq: r.seq,
    attempt: r.attempt,
    step_path: r.step_path,
    step_id: r.step_id,
    kind: r.kind,
    file: paths.load(r.file),
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
