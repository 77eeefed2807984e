import type { CallObserver, CallOptions } from '../client/index.js';
import { RecipeError, type ErrorCode } from '../errors/index.js';
import type { CallEntry, CallOutcome, ExchangeRecord, SettledBy } from '../journal/index.js';
import { isInterrupt, locationOf } from '../frame/step-errors.js';
import { describeWrites, grantsWrite } from '../packages/grant.js';
import type { StepContext } from './step-context.js';

/**
 * One call to the service as the record/replay point sees it. Steps describe their calls with this and
 * never talk to the journal: execute, paginate, download and the context store wait use it, and so should
 * any new step that sends requests (an `http` step: kind 'http', its method and URL, write = not GET).
 */
export interface ServiceCall<T> {
  /** execute, download, inspect, resolve, http... (journaled as is). */
  readonly kind: string;
  readonly method: string;
  /** The request path (a URL for http). */
  readonly path: string;
  readonly entity: string | null;
  readonly action: string | null;
  /** May change data on the other side: journaled as an intent before sending, keyed, settled on resume. */
  readonly write: boolean;
  /** The request as journaled (masked) and compared on replay: whatever decides the answer. */
  readonly request: unknown;
  /** A run-wide key for an answer every step shares (a connector lookup): one call, one record. */
  readonly sharedKey?: string;
  /** False when the answer is not kept (download bytes): a replay sends the call again (reads only). */
  readonly keepAnswer: boolean;
  /** Sends the request; `opts` carries the signal, the retry policy, counting and the Idempotency-Key. */
  send(opts: CallOptions): Promise<T>;
  /** The answer as a JSON value for the journal, and back. */
  encode(answer: T): unknown;
  decode(stored: unknown): T;
  /** Under --dry-run a write is not sent: its placeholder answer, given the call's key (its place in the run). */
  dryRun?(callKey: string): T | Promise<T>;
  /** What a write settled with --assume-sent answers (no answer was ever seen). */
  assumed?(): T;
  /** Looks for the effect of a write in doubt (the step's in_doubt); undefined when there is none. */
  findEffect?(opts: CallOptions): Promise<T | undefined>;
}

/**
 * The one place where calls are recorded and replayed (the run/client boundary). A fresh run sends each call
 * and journals it: a write's intent durably before it is sent, every answer (batched) after. A resume asks
 * the journal first: a call with a recorded answer gets it without being sent; a write in doubt (sent, no
 * answer) is settled as planned before the resume started (see journal-session.ts); anything else is sent.
 */
export function callService<T>(stepCtx: StepContext, call: ServiceCall<T>): Promise<T> {
  // Not an async function: a call that is neither journaled nor shared hands back the client's own promise
  // (one async frame less per request). What fails before that rejects, as an async function's would.
  try {
    return serviceCall(stepCtx, call);
  } catch (err) {
    return Promise.reject(err);
  }
}

function serviceCall<T>(stepCtx: StepContext, call: ServiceCall<T>): Promise<T> {
  checkGrant(stepCtx, call);
  const rec = stepCtx.state.recorder;
  if (call.sharedKey === undefined) {
    // Not journaled and not a write (no Idempotency-Key): the key is never read, so it is counted, not made.
    if (!rec.journal && !call.write) {
      stepCtx.skipCallKey();
      return call.send(stepCtx.callOptions());
    }
    return journaled(stepCtx, call, stepCtx.nextCallKey());
  }
  let answer = rec.shared.get(call.sharedKey) as Promise<T> | undefined;
  if (!answer) {
    const key = call.sharedKey;
    answer = journaled(stepCtx, call, key);
    rec.shared.set(key, answer);
    answer.catch(() => rec.shared.delete(key));
  }
  return answer;
}

async function journaled<T>(stepCtx: StepContext, call: ServiceCall<T>, key: string): Promise<T> {
  const rec = stepCtx.state.recorder;
  const journal = rec.journal;
  const idempotencyKey = call.write ? rec.idempotencyKey(key) : undefined;
  if (!journal) {
    if (call.write && stepCtx.ctx.dryRun && call.dryRun) return await call.dryRun(key);
    if (call.write) rec.writes++;
    return call.send(stepCtx.callOptions(idempotencyKey));
  }
  const request = rec.redactor.redact(JSON.stringify(call.request) ?? 'null');
  // Built whole, not spread: this runs once per call, and spreads into literals are slow paths in V8.
  const loc = stepCtx.step.loc;
  const entry: CallEntry = {
    call_key: key,
    step_path: stepCtx.path,
    file: loc.file,
    line: loc.line,
    column: loc.column,
    pointer: loc.pointer,
    kind: call.kind,
    method: call.method,
    path: call.path,
    entity: call.entity,
    action: call.action,
    write: call.write,
    idempotency_key: idempotencyKey ?? null,
    request,
  };
  if (call.write && stepCtx.ctx.dryRun && call.dryRun) {
    const placeholder = await call.dryRun(key);
    await journal.record(entry, outcome(entry, 'dry_run', { answer: encodeAnswer(stepCtx, call, placeholder).answer }));
    return placeholder;
  }
  if (journal.resuming) {
    const prior = await journal.lookup(key);
    if (prior) {
      const next = decide(stepCtx, call, entry, prior);
      if (next === 'replay') return replay(stepCtx, call, prior);
      if (next !== 'live') return settle(stepCtx, call, entry, next, idempotencyKey);
    }
  }
  return live(stepCtx, call, entry, idempotencyKey, null);
}

/**
 * A write of a package (or of a call with `allow:`) against its grant, before anything is sent or journaled:
 * a connector write must be granted (entity and action) and within max_writes; http hosts are checked by the
 * http step against the grant's hosts with the recipes' own http.allow lists.
 */
function checkGrant<T>(stepCtx: StepContext, call: ServiceCall<T>): void {
  const inForce = stepCtx.state.grant;
  if (!inForce || !call.write || call.kind === 'http') return;
  const entity = call.entity ?? '?';
  const action = call.action ?? '?';
  const loc = locationOf(stepCtx.step.loc);
  if (!grantsWrite(inForce.grant, entity, action))
    throw new RecipeError('P033', { entity, action, key: inForce.to, granted: describeWrites(inForce.grant) }, loc);
  const max = inForce.grant.maxWrites;
  if (max !== undefined && inForce.counter.writes >= max)
    throw new RecipeError('P034', { entity, action, key: inForce.to, max }, loc);
  inForce.counter.writes++;
}

type Decision = 'replay' | 'live' | SettledBy;

/** What to do with a call the journal has a record of (only a resume gets here). */
function decide<T>(stepCtx: StepContext, call: ServiceCall<T>, entry: CallEntry, prior: ExchangeRecord): Decision {
  const replay = stepCtx.state.recorder.replay;
  const same = prior.request === entry.request;
  const diverged = (): never => {
    throw new RecipeError(
      'J005',
      { stepPath: entry.step_path, what: 'request', attempt: prior.attempt, callKey: entry.call_key },
      { file: entry.file, line: entry.line, column: entry.column, pointer: entry.pointer },
    );
  };
  const settleBy = (): SettledBy => {
    const method = replay?.settle.get(entry.call_key);
    // Every write in doubt was planned for before anything was sent; one that was not has no way to settle.
    if (!method) throw unsettled(stepCtx, entry);
    return method;
  };
  switch (prior.state) {
    case 'answered':
      if (!same) return call.write ? diverged() : 'live';
      if (prior.redacted || prior.answer === null || !call.keepAnswer) return call.write ? settleBy() : 'live';
      return 'replay';
    case 'intent':
      if (!call.write) return 'live';
      return same ? settleBy() : diverged();
    case 'failed': {
      const retry = replay?.retryFailedItems === true || replay?.failedCall === entry.call_key;
      if (call.write && prior.doubt) {
        if (!same) diverged();
        return retry ? settleBy() : 'replay';
      }
      return retry || !same ? 'live' : 'replay';
    }
    case 'dry_run':
      return 'live';
  }
}

/** The recorded answer (or error) instead of the network. */
function replay<T>(stepCtx: StepContext, call: ServiceCall<T>, prior: ExchangeRecord): T {
  stepCtx.state.recorder.replayed++;
  stepCtx.state.recorder.journal?.progress(counters(stepCtx));
  if (prior.state === 'failed') {
    const e = JSON.parse(prior.error ?? '{}') as { code?: string; params?: Record<string, unknown> };
    throw new RecipeError((e.code ?? 'X001') as ErrorCode, e.params ?? { message: 'recorded error' });
  }
  return call.decode(JSON.parse(prior.answer as string));
}

/** Settles a write in doubt as planned. */
async function settle<T>(
  stepCtx: StepContext,
  call: ServiceCall<T>,
  entry: CallEntry,
  method: SettledBy,
  idempotencyKey: string | undefined,
): Promise<T> {
  const journal = stepCtx.state.recorder.journal;
  if (method === 'assume_sent' && call.assumed) {
    const answer = call.assumed();
    await journal?.record(
      entry,
      outcome(entry, 'answered', { ...encodeAnswer(stepCtx, call, answer), settled_by: method }),
    );
    return answer;
  }
  if (method === 'lookup' && call.findEffect) {
    const found = await call.findEffect(stepCtx.callOptions());
    if (found !== undefined) {
      await journal?.record(
        entry,
        outcome(entry, 'answered', { ...encodeAnswer(stepCtx, call, found), settled_by: method }),
      );
      return found;
    }
  }
  // Sent again with the same Idempotency-Key: a service that honours it answers the first answer, if any.
  return live(stepCtx, call, entry, idempotencyKey, method);
}

/** Sends the call and journals it (a write's intent first, durably). */
async function live<T>(
  stepCtx: StepContext,
  call: ServiceCall<T>,
  entry: CallEntry,
  idempotencyKey: string | undefined,
  settledBy: SettledBy | null,
): Promise<T> {
  const rec = stepCtx.state.recorder;
  const journal = rec.journal;
  if (call.write) {
    await journal?.intend(entry);
    rec.writes++;
  }
  const seen = { status: null as number | null, retries: 0, text: undefined as string | undefined };
  const observer: CallObserver = {
    response: (info) => void (seen.status = info.status),
    retry: () => void seen.retries++,
    // The answer's JSON text as it came (execute): kept as is, not serialised again.
    answer: (text) => void (seen.text = text),
  };
  const sentAt = Date.now();
  try {
    const answer = await call.send(stepCtx.callOptions(idempotencyKey, observer));
    if (journal) {
      const encoded = encodeAnswer(stepCtx, call, answer, seen.text);
      const backlog = journal.record(entry, {
        call_key: entry.call_key,
        state: 'answered',
        status: seen.status,
        answer: encoded.answer,
        error: null,
        doubt: false,
        redacted: encoded.redacted,
        retries: seen.retries,
        sent_at: sentAt,
        latency_ms: Date.now() - sentAt,
        settled_by: settledBy,
      });
      if (call.write && stepCtx.ctx.client.idempotencyHonoured === true) rec.noteHonoured();
      journal.progress(counters(stepCtx));
      // The journal's writer is far behind (a slow disk): wait, so that answers do not pile up in memory.
      if (backlog) await backlog;
    }
    return answer;
  } catch (err) {
    // Cancelled in flight (Ctrl-C, a timeout of the step): no outcome. A write stays an intent: in doubt.
    if (!isInterrupt(err) && journal) {
      const e = err instanceof RecipeError ? err : new RecipeError('X001', { message: String(err) });
      const status = typeof e.params.status === 'number' ? e.params.status : seen.status;
      await journal.record(
        entry,
        outcome(entry, 'failed', {
          error: rec.redactor.redact(JSON.stringify({ code: e.code, params: e.params })),
          status,
          doubt: call.write && mayHaveApplied(e),
          retries: seen.retries,
          sent_at: sentAt,
          latency_ms: Date.now() - sentAt,
          settled_by: settledBy,
        }),
      );
      journal.progress(counters(stepCtx));
    }
    rec.tagFailure(err, entry.call_key);
    throw err;
  }
}

/** A failed write that may nevertheless have been applied: the answer was lost, or the server failed late. */
function mayHaveApplied(e: RecipeError): boolean {
  if (e.code === 'C006') return e.params.sent !== false;
  if (e.code === 'C007') return true;
  if (e.code === 'C005') return typeof e.params.status === 'number' && e.params.status >= 500;
  return e.code === 'C010';
}

/** The answer as journaled: masked; `redacted` says the mask changed it (then it cannot be replayed). */
function encodeAnswer<T>(
  stepCtx: StepContext,
  call: ServiceCall<T>,
  answer: T,
  raw?: string,
): { answer: string | null; redacted: boolean } {
  if (!call.keepAnswer) return { answer: null, redacted: false };
  const text = raw ?? JSON.stringify(call.encode(answer)) ?? 'null';
  const masked = stepCtx.state.recorder.redactor.redact(text);
  return { answer: masked, redacted: masked !== text };
}

function outcome(entry: CallEntry, state: CallOutcome['state'], extra: Partial<CallOutcome>): CallOutcome {
  return {
    call_key: entry.call_key,
    state,
    status: null,
    answer: null,
    error: null,
    doubt: false,
    redacted: false,
    retries: 0,
    sent_at: null,
    latency_ms: null,
    settled_by: null,
    ...extra,
  };
}

function counters(stepCtx: StepContext): { requests: number; writes: number; replayed_calls: number } {
  const rec = stepCtx.state.recorder;
  return { requests: stepCtx.state.tracker.requests, writes: rec.writes, replayed_calls: rec.replayed };
}

/** J004 for one write in doubt that no plan covers. */
function unsettled(stepCtx: StepContext, entry: CallEntry): RecipeError {
  return new RecipeError(
    'J004',
    { runId: stepCtx.state.recorder.runId, count: 1, writes: `  ${entry.step_path}: ${entry.method} ${entry.path}` },
    { file: entry.file, line: entry.line, column: entry.column, pointer: entry.pointer },
  );
}
