import type { AttemptRecord, JournalReader, RunRecord, RunSummary } from '../../journal/index.js';
import type { AttemptView, RunListItem, RunSource, RunView } from '../run-api-types.js';
import { describeOrigin } from './origin.js';
import { requestView } from './requests.js';
import { readRunSource, shownPath } from './run-source.js';
import { StepTree } from './step-tree.js';
import { makeAxis, type AttemptWindow } from './time-bars.js';

/** Rows read from the journal per query while catching up. */
const BATCH = 1000;
/** Calls a run page aggregates; a run with more shows the first ones and says so. */
const MAX_CALLS = 200_000;

/** A run summary as the list shows it, with its origin (the run's journaled options.origin). */
export function listItem(r: RunSummary, origin: unknown): RunListItem {
  return {
    run_id: r.run_id,
    recipe: r.recipe,
    file: r.file,
    status: r.status,
    started_at: r.started_at,
    ended_at: r.ended_at,
    duration_ms: r.duration_ms,
    requests: r.requests,
    writes: r.writes,
    attempts: r.attempts,
    dry_run: r.dry_run,
    origin: describeOrigin(origin),
  };
}

/**
 * One run as the run page shows it, kept up to date: catchUp() reads only what the journal recorded since
 * the last call (after_seq), so following a running run costs a couple of small queries per poll.
 */
export class RunFollower {
  private readonly tree = new StepTree();
  private stepSeq = 0;
  private callSeq = 0;
  private truncated = false;
  private source: Promise<RunSource | null> | undefined;

  constructor(
    private readonly reader: JournalReader,
    readonly runId: string,
    private readonly cwd: string,
  ) {}

  /** Reads the journal's new step events and calls; true when there were any. */
  async catchUp(): Promise<boolean> {
    let any = false;
    for (;;) {
      const steps = await this.reader.listSteps(this.runId, { after_seq: this.stepSeq, limit: BATCH });
      for (const e of steps) {
        this.tree.addStep({ ...e, started_at: Date.parse(e.started_at) });
        this.stepSeq = Math.max(this.stepSeq, e.seq);
      }
      any ||= steps.length > 0;
      if (steps.length < BATCH) break;
    }
    while (!this.truncated) {
      const calls = await this.reader.listExchanges(this.runId, { after_seq: this.callSeq, limit: BATCH });
      for (const x of calls) {
        if (this.tree.callCount >= MAX_CALLS) {
          this.truncated = true;
          break;
        }
        this.tree.addCall({ ...x, sent_at: x.sent_at === null ? null : Date.parse(x.sent_at) });
        this.callSeq = Math.max(this.callSeq, x.seq);
      }
      any ||= calls.length > 0;
      if (calls.length < BATCH) break;
    }
    return any;
  }

  /** The page's view of the run now; undefined when the journal has no such run. */
  async view(): Promise<RunView | undefined> {
    const record = await this.reader.getRun(this.runId);
    if (!record) return undefined;
    const live = record.status === 'running';
    const attempts = await this.reader.listAttempts(this.runId);
    const axis = makeAxis(windows(attempts, this.tree.activity(), live));
    this.source ??= readRunSource(record, this.cwd);
    const totals = { requests: 0, failed: 0, writes: 0, dry_run_writes: 0, retries: 0 };
    for (const c of this.tree.allCalls()) {
      if (c.state === 'dry_run') totals.dry_run_writes++;
      else {
        totals.requests++;
        totals.retries += c.retries;
        if (c.state === 'failed') totals.failed++;
        if (c.write) totals.writes++;
      }
    }
    return {
      run: runDetail(record, this.cwd),
      attempts: attempts.map((a) => attemptView(a, axis.starts.get(a.attempt) ?? 0)),
      axis_ms: axis.length,
      steps: this.tree.view(axis, live),
      totals,
      // While it runs, a write without an answer is in flight, not in doubt.
      writes_in_doubt: live ? [] : (await this.reader.writesInDoubt(this.runId)).map(requestView),
      source: await this.source,
      seq: Math.max(this.stepSeq, this.callSeq),
      ...(this.truncated
        ? { truncated: `the waterfall covers the first ${MAX_CALLS.toLocaleString('en')} requests of this run` }
        : {}),
    };
  }
}

function runDetail(r: RunRecord, cwd: string): RunView['run'] {
  const e = r.error;
  return {
    ...listItem(r, r.options.origin),
    file: shownPath(r.file, cwd),
    inputs: r.inputs,
    outputs: r.outputs,
    error:
      e === null
        ? null
        : {
            code: String(e.code ?? 'X001'),
            message: String(e.message ?? ''),
            ...(typeof e.file === 'string' ? { file: shownPath(e.file, cwd) } : {}),
            ...(typeof e.line === 'number' ? { line: e.line } : {}),
            ...(typeof e.column === 'number' ? { column: e.column } : {}),
          },
    options: r.options,
    failed_call: r.failed_call,
    holder: r.status === 'running' ? r.holder : null,
  };
}

function attemptView(a: AttemptRecord, axisStart: number): AttemptView {
  return {
    attempt: a.attempt,
    kind: a.kind,
    started_at: a.started_at,
    ended_at: a.ended_at,
    status: a.status,
    requests: a.requests,
    writes: a.writes,
    replayed_calls: a.replayed_calls,
    options: a.options,
    axis_start: axisStart,
  };
}

/** Each attempt from its start to its end (or, unfinished, to the last thing it did; now while it runs). */
function windows(
  attempts: readonly AttemptRecord[],
  activity: Map<number, { start: number; end: number }>,
  live: boolean,
): AttemptWindow[] {
  const last = attempts[attempts.length - 1]?.attempt;
  return attempts.map((a) => {
    const seen = activity.get(a.attempt);
    const start = Math.min(Date.parse(a.started_at), seen?.start ?? Infinity);
    let end = a.ended_at !== null ? Date.parse(a.ended_at) : (seen?.end ?? start);
    if (live && a.attempt === last) end = Math.max(end, Date.now());
    return { attempt: a.attempt, start, end: Math.max(end, seen?.end ?? end) };
  });
}
