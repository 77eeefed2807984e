import type { ForeachStep, Step } from '../../compile/plan.js';
import type { ChunkStepStats } from '../../frame/distribute-types.js';
import type { StepStats, StepStatus, Tracker } from '../../frame/report.js';

/**
 * Every step inside a foreach's body, nested ones included (paginate's steps, a called recipe's), in one
 * fixed order: a chunk and the run that distributed it walk the same plan, so their lists line up.
 */
export function bodySteps(step: ForeachStep): Step[] {
  const out: Step[] = [];
  const walk = (steps: readonly Step[]): void => {
    for (const s of steps) {
      out.push(s);
      if (s.kind === 'foreach') walk(s.steps);
      else if (s.kind === 'paginate' && s.steps) walk(s.steps);
      else if (s.kind === 'call') walk(s.plan.steps);
    }
  };
  walk(step.steps);
  return out;
}

/** The counters of the body's steps as a chunk ran them. */
export function chunkStepStats(step: ForeachStep, tracker: Tracker, depth: number, file: string): ChunkStepStats[] {
  return bodySteps(step).map((s) => {
    const st = tracker.statsFor(s, depth, file);
    return {
      runs: st.runs,
      skippedRuns: st.skippedRuns,
      durationMs: st.durationMs,
      requests: st.requests,
      retries: st.retries,
      records: st.records,
      status: st.status,
    };
  });
}

/** Adds a chunk's counters to the run's rows of the body's steps (they ran on other workers). */
export function addChunkStats(
  step: ForeachStep,
  tracker: Tracker,
  depth: number,
  file: string,
  from: readonly ChunkStepStats[],
): void {
  bodySteps(step).forEach((s, i) => {
    const c = from[i];
    if (!c) return;
    const st: StepStats = tracker.statsFor(s, depth, file);
    st.runs += c.runs;
    st.skippedRuns += c.skippedRuns;
    st.durationMs += c.durationMs;
    st.requests += c.requests;
    st.retries += c.retries;
    st.records += c.records;
    st.status = worse(st.status, c.status as StepStatus);
  });
}

const RANK: Record<StepStatus, number> = { not_run: 0, skipped: 1, ok: 2, continued: 3, failed: 4 };

function worse(a: StepStatus, b: StepStatus): StepStatus {
  return (RANK[b] ?? 0) > RANK[a] ? b : a;
}

/** Two chunks' counters of the same body, as one. */
export function mergeChunkStepStats(
  a: readonly ChunkStepStats[] | undefined,
  b: readonly ChunkStepStats[] | undefined,
): ChunkStepStats[] | undefined {
  if (!a) return b ? [...b] : undefined;
  if (!b) return [...a];
  return a.map((x, i) => {
    const y = b[i];
    if (!y) return x;
    return {
      runs: x.runs + y.runs,
      skippedRuns: x.skippedRuns + y.skippedRuns,
      durationMs: x.durationMs + y.durationMs,
      requests: x.requests + y.requests,
      retries: x.retries + y.retries,
      records: x.records + y.records,
      status: worse(x.status as StepStatus, y.status as StepStatus),
    };
  });
}
