import type { Step } from '../../compile/plan.js';
import { stepPathOf, type RunState } from '../../calls/run-state.js';

/** Steps that hold others: their start is recorded too, so a console following the run sees them running. */
const CONTAINERS: ReadonlySet<string> = new Set(['foreach', 'paginate', 'call']);
/**
 * Journals a step visit for the console's waterfall: every top-level step, every step that holds others,
 * and every failure. Inside loops, a step that talks to the service needs no event of its own: its exchanges
 * carry its step path, start and latency. A transform run once per streamed record is left out: its timing
 * says little and a million of them would cost more than the run.
 */
export function recordStep(
  state: RunState,
  step: Step,
  status: string,
  startedAt: number,
  durationMs: number | null,
  errorCode: string | null = null,
): void {
  const journal = state.recorder.journal;
  if (!journal) return;
  const running = status === 'running';
  if (running ? state.depth !== 0 && !CONTAINERS.has(step.kind) : !worthRecording(state, step, status)) return;
  journal.step({
    step_path: stepPathOf(state, step),
    step_id: step.id ?? `${step.kind}@${step.loc.line}`,
    kind: step.kind,
    file: step.loc.file,
    line: step.loc.line,
    column: step.loc.column,
    pointer: step.loc.pointer,
    depth: state.depth,
    status,
    started_at: startedAt,
    duration_ms: durationMs === null ? null : Math.round(durationMs),
    error_code: errorCode,
  });
}

function worthRecording(state: RunState, step: Step, status: string): boolean {
  return state.depth === 0 || CONTAINERS.has(step.kind) || status === 'failed' || status === 'continued';
}
