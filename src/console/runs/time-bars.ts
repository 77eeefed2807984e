import type { TimeBar } from '../run-api-types.js';

/** Outcomes from worst to best: a row shows the worst of what it holds. */
const SEVERITY = ['failed', 'interrupted', 'continued', 'running', 'ok', 'skipped'];

/** The worse of two outcomes. */
export function worse(a: string, b: string): string {
  const ia = SEVERITY.indexOf(a);
  const ib = SEVERITY.indexOf(b);
  return (ib < 0 ? SEVERITY.length : ib) < (ia < 0 ? SEVERITY.length : ia) ? b : a;
}

/** Where each attempt sits on the run's axis: attempts end to end, the waiting between them left out. */
export interface Axis {
  /** ms on the axis of epoch ms `t` in attempt `attempt`. */
  at(attempt: number, t: number): number;
  readonly length: number;
  /** Where each attempt starts on the axis. */
  readonly starts: ReadonlyMap<number, number>;
}

/** One attempt's window in epoch ms (end: its recorded end, else the last thing it did). */
export interface AttemptWindow {
  readonly attempt: number;
  readonly start: number;
  readonly end: number;
}

export function makeAxis(windows: readonly AttemptWindow[]): Axis {
  const starts = new Map<number, number>();
  const origin = new Map<number, number>();
  let offset = 0;
  for (const w of [...windows].sort((a, b) => a.attempt - b.attempt)) {
    starts.set(w.attempt, offset);
    origin.set(w.attempt, w.start);
    offset += Math.max(0, w.end - w.start);
  }
  return {
    at: (attempt, t) => Math.max(0, t - (origin.get(attempt) ?? t) + (starts.get(attempt) ?? 0)),
    length: offset,
    starts,
  };
}

/** Collects the time a row took, per attempt: the earliest start, the latest end, the worst outcome. */
export class BarSet {
  private readonly byAttempt = new Map<number, { start: number; end: number | null; status: string }>();

  add(attempt: number, start: number, end: number | null, status: string): void {
    const b = this.byAttempt.get(attempt);
    if (!b) {
      this.byAttempt.set(attempt, { start, end, status });
      return;
    }
    b.start = Math.min(b.start, start);
    b.end = b.end === null || end === null ? null : Math.max(b.end, end);
    b.status = worse(b.status, status);
  }

  get lastAttempt(): number {
    return Math.max(0, ...this.byAttempt.keys());
  }

  /** Every attempt's bar, on the axis. */
  bars(axis: Axis): TimeBar[] {
    return [...this.byAttempt.entries()].sort(([a], [b]) => a - b).map(([attempt, b]) => toBar(axis, attempt, b));
  }

  /** The latest attempt's bar, on the axis. */
  last(axis: Axis): TimeBar {
    const attempt = this.lastAttempt;
    const b = this.byAttempt.get(attempt) ?? { start: 0, end: 0, status: 'ok' };
    return toBar(axis, attempt, b);
  }
}

function toBar(axis: Axis, attempt: number, b: { start: number; end: number | null; status: string }): TimeBar {
  return {
    attempt,
    start: axis.at(attempt, b.start),
    end: b.end === null ? null : axis.at(attempt, b.end),
    status: b.status,
  };
}
