import { isWriteInDoubt } from '../in-doubt.js';
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

const iso = (ms: number | null | undefined): string | null =>
  ms === null || ms === undefined ? null : new Date(ms).toISOString();

/** An exchange as stored (JSON; seq is put in front by the append script). */
interface StoredExchange extends Omit<ExchangeRecord, 'sent_at' | 'seq'> {
  readonly seq: number;
  readonly sent_at: number | null;
}

/** The JSON of a call's latest state (the append script adds seq). */
export function exchangeJson(paths: PathCodec, attempt: number, call: CallEntry, outcome: CallOutcome | null): string {
  const stored: Omit<StoredExchange, 'seq'> = {
    call_key: call.call_key,
    attempt,
    step_path: call.step_path,
    file: paths.store(call.file),
    line: call.line,
    column: call.column,
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
    sent_at: outcome?.sent_at ?? null,
    latency_ms: outcome?.latency_ms ?? null,
    settled_by: outcome?.settled_by ?? null,
  };
  return JSON.stringify(stored);
}

/** True when the exchange is a write in doubt (isWriteInDoubt); no outcome yet is an intent. */
export function inDoubt(call: CallEntry, outcome: CallOutcome | null): boolean {
  return isWriteInDoubt({
    write: call.write,
    state: outcome?.state ?? 'intent',
    doubt: outcome?.doubt ?? false,
    redacted: outcome?.redacted ?? false,
  });
}

export function toExchange(paths: PathCodec, text: string): ExchangeRecord {
  const s = JSON.parse(text) as StoredExchange;
  return { ...s, file: paths.load(s.file), sent_at: iso(s.sent_at), settled_by: s.settled_by as SettledBy | null };
}

/** A step event as stored. */
interface StoredStep extends Omit<StepEventRecord, 'started_at'> {
  readonly started_at: number;
}

export function stepJson(paths: PathCodec, attempt: number, e: StepEvent): string {
  const stored: Omit<StoredStep, 'seq'> = {
    attempt,
    step_path: e.step_path,
    step_id: e.step_id,
    kind: e.kind,
    file: paths.store(e.file),
    line: e.line,
    column: e.column,
    pointer: e.pointer,
    depth: e.depth,
    status: e.status,
    started_at: e.started_at,
    duration_ms: e.duration_ms,
    error_code: e.error_code,
  };
  return JSON.stringify(stored);
}

export function toStep(paths: PathCodec, text: string): StepEventRecord {
  const s = JSON.parse(text) as StoredStep;
  return { ...s, file: paths.load(s.file), started_at: iso(s.started_at) as string };
}

/** An attempt's start as stored under `<n>` in the run's :att hash. */
export interface StoredAttempt {
  readonly kind: AttemptRecord['kind'];
  readonly started_at: number;
  readonly options: Record<string, unknown>;
}

/** An attempt's end as stored under `<n>:end`. */
export interface StoredAttemptEnd {
  readonly ended_at: number;
  readonly status: RunStatus;
  readonly requests: number;
  readonly writes: number;
  readonly replayed_calls: number;
}

/** Counters as stored under `<n>:c` (and a part's in :parts). */
export interface StoredCounters {
  readonly requests: number;
  readonly writes: number;
  readonly replayed_calls: number;
}

/** Every attempt of a run from its :att hash, oldest first; `held` says whether the last one is live. */
export function toAttempts(att: Record<string, string>, held: boolean): AttemptRecord[] {
  const numbers = Object.keys(att)
    .filter((k) => /^\d+$/.test(k))
    .map(Number)
    .sort((a, b) => a - b);
  const last = numbers[numbers.length - 1];
  return numbers.map((n) => {
    const start = JSON.parse(att[String(n)] as string) as StoredAttempt;
    const end = att[`${n}:end`] === undefined ? null : (JSON.parse(att[`${n}:end`] as string) as StoredAttemptEnd);
    const counters = end ?? parseCounters(att[`${n}:c`]);
    return {
      attempt: n,
      kind: start.kind,
      started_at: iso(start.started_at) as string,
      ended_at: iso(end?.ended_at),
      status: end ? end.status : held && n === last ? 'running' : 'interrupted',
      requests: counters.requests,
      writes: counters.writes,
      replayed_calls: counters.replayed_calls,
      options: start.options,
    };
  });
}

function parseCounters(text: string | undefined): StoredCounters {
  return text === undefined ? { requests: 0, writes: 0, replayed_calls: 0 } : (JSON.parse(text) as StoredCounters);
}

/** Time spent running, summed over attempts (an attempt that never ended counts until its last write). */
function durationOf(att: Record<string, string>): number {
  let total = 0;
  for (const k of Object.keys(att)) {
    if (!/^\d+$/.test(k)) continue;
    const start = (JSON.parse(att[k] as string) as StoredAttempt).started_at;
    const endText = att[`${k}:end`];
    const until = endText ? (JSON.parse(endText) as StoredAttemptEnd).ended_at : Number(att[`${k}:u`] ?? start);
    total += Math.max(0, until - start);
  }
  return total;
}

/** What one run's keys hold, as read for history. */
export interface RunKeys {
  readonly run: Record<string, string>;
  readonly att: Record<string, string>;
  readonly parts: Record<string, string>;
  readonly held: boolean;
}

/** `status` as history shows it: a run stored as running that nobody holds is interrupted. */
export function statusOf(k: RunKeys): RunStatus {
  const stored = k.run.status as RunStatus;
  if (stored !== 'running') return stored;
  return k.held ? 'running' : 'interrupted';
}

export function toSummary(paths: PathCodec, k: RunKeys): RunSummary {
  let requests = 0;
  let writes = 0;
  for (const a of toAttempts(k.att, k.held)) {
    requests += a.requests;
    writes += a.writes;
  }
  for (const text of Object.values(k.parts)) {
    const c = JSON.parse(text) as StoredCounters;
    requests += c.requests;
    writes += c.writes;
  }
  return {
    run_id: k.run.run_id as string,
    recipe: k.run.recipe as string,
    file: paths.load(k.run.file as string),
    status: statusOf(k),
    started_at: iso(Number(k.run.started_at)) as string,
    ended_at: k.run.ended_at ? iso(Number(k.run.ended_at)) : null,
    duration_ms: durationOf(k.att),
    requests,
    writes,
    attempts: Number(k.run.attempts),
    dry_run: k.run.dry_run === '1',
  };
}

export function toRun(paths: PathCodec, k: RunKeys): RunRecord {
  const r = k.run;
  const json = <T>(text: string | undefined): T | null => (text === undefined || text === '' ? null : JSON.parse(text));
  return {
    ...toSummary(paths, k),
    files: (JSON.parse(r.files as string) as RecipeFileHash[]).map((f) => ({ ...f, path: paths.load(f.path) })),
    inputs: JSON.parse(r.inputs as string) as Record<string, unknown>,
    options: JSON.parse(r.options as string) as Record<string, unknown>,
    outputs: json<Record<string, unknown>>(r.outputs),
    error: json<Record<string, unknown>>(r.error),
    report: r.report === undefined || r.report === '' ? null : r.report,
    failed_call: r.failed_call === undefined || r.failed_call === '' ? null : r.failed_call,
    idempotency: r.idempotency === 'honoured' ? 'honoured' : null,
    holder: k.held && r.holder ? (JSON.parse(r.holder) as Record<string, unknown>) : null,
  };
}
