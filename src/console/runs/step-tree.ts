import type { IterationView, StepView } from '../run-api-types.js';
import { BarSet, worse, type Axis } from './time-bars.js';

/** A step event as the tree needs it (times in epoch ms). */
export interface StepTrace {
  readonly attempt: number;
  readonly step_path: string;
  readonly step_id: string;
  readonly kind: string;
  readonly file: string;
  readonly line: number;
  readonly status: string;
  readonly started_at: number;
  readonly duration_ms: number | null;
  readonly error_code: string | null;
}

/** A call as the tree needs it (times in epoch ms). */
export interface CallTrace {
  readonly call_key: string;
  readonly attempt: number;
  readonly step_path: string;
  readonly file: string;
  readonly line: number;
  readonly kind: string;
  readonly state: string;
  readonly retries: number;
  readonly sent_at: number | null;
  readonly latency_ms: number | null;
  readonly write: boolean;
}

/** Iterations a loop row carries: failures first (up to half), then the first ones by index. */
export const ITERATIONS_SHOWN = 200;
/** Iterations remembered per loop; past this a loop's further iterations are counted in its row only. */
const ITERATIONS_KEPT = 20_000;
/** Distinct visits counted per step; past this the count stops growing (the view says "at least"). */
const VISITS_KEPT = 100_000;

interface Segment {
  readonly ref: string;
  readonly index: number | undefined;
}

/** `rows[3].contacts` → [{rows, 3}, {contacts}]. Step ids are identifiers and pointers hold no dots. */
function segmentsOf(path: string): Segment[] {
  return path.split('.').map((part) => {
    const m = /^(.*)\[(\d+)\]$/.exec(part);
    return m ? { ref: m[1] as string, index: Number(m[2]) } : { ref: part, index: undefined };
  });
}

/** A row being built: one step of the recipe, over all its visits. */
class Row {
  label: string;
  kind: string;
  file = '';
  line = 0;
  fromEvents = false;
  readonly eventBars = new BarSet();
  readonly callBars = new BarSet();
  readonly visits = new Set<string>();
  requests = 0;
  retries = 0;
  failures = 0;
  writes = 0;
  errorCode: string | null = null;
  readonly children = new Map<string, Row>();
  readonly iterations = new Map<string, Iteration>();

  constructor(
    readonly key: string,
    readonly depth: number,
    ref: string,
  ) {
    const at = ref.indexOf('@');
    this.label = ref;
    this.kind = at > 0 ? ref.slice(0, at) : 'step';
  }
}

interface Iteration {
  readonly key: string;
  readonly index: number;
  readonly bars: BarSet;
  requests: number;
  failures: number;
  readonly parts: Map<string, { row: Row; bars: BarSet; requests: number }>;
}

/**
 * A run's steps as a tree with timings, built from what the journal holds: step events (top-level steps,
 * containers, failures) and calls (each with its step path, start and latency). A step inside a loop is one
 * row over all its iterations; the loop's row lists its iterations. Events and calls are kept by key, so a
 * running run's newer records (a step's end, a write's answer) replace the older ones when it is followed.
 */
export class StepTree {
  private readonly steps = new Map<string, StepTrace>();
  private readonly calls = new Map<string, CallTrace>();

  addStep(e: StepTrace): void {
    this.steps.set(`${e.attempt}|${e.step_path}`, e);
  }

  addCall(c: CallTrace): void {
    this.calls.set(c.call_key, c);
  }

  get callCount(): number {
    return this.calls.size;
  }

  /** The calls, for totals. */
  allCalls(): IterableIterator<CallTrace> {
    return this.calls.values();
  }

  /** Epoch ms of the first and last thing each attempt did (for attempts that recorded no end). */
  activity(): Map<number, { start: number; end: number }> {
    const out = new Map<number, { start: number; end: number }>();
    const note = (attempt: number, start: number, end: number): void => {
      const w = out.get(attempt);
      out.set(attempt, w ? { start: Math.min(w.start, start), end: Math.max(w.end, end) } : { start, end });
    };
    for (const e of this.steps.values()) note(e.attempt, e.started_at, e.started_at + (e.duration_ms ?? 0));
    for (const c of this.calls.values())
      if (c.sent_at !== null) note(c.attempt, c.sent_at, c.sent_at + (c.latency_ms ?? 0));
    return out;
  }

  /** The tree on `axis`; `live`: the run is still running (an unfinished step is running, not interrupted). */
  view(axis: Axis, live: boolean): StepView[] {
    const roots = new Map<string, Row>();
    const unfinished = live ? 'running' : 'interrupted';
    for (const e of this.steps.values()) {
      const { row, loops } = this.place(roots, e.step_path);
      const status = e.status === 'running' ? unfinished : e.status;
      const end = e.duration_ms === null ? null : e.started_at + e.duration_ms;
      row.fromEvents = true;
      row.label = e.step_id;
      row.kind = e.kind;
      row.file = e.file;
      row.line = e.line;
      row.eventBars.add(e.attempt, e.started_at, end, status);
      if (e.error_code !== null) row.errorCode = e.error_code;
      for (const note of loops) note(e.attempt, e.started_at, end, status, 0, 0);
    }
    for (const c of this.calls.values()) {
      const { row, loops } = this.place(roots, c.step_path);
      if (!row.fromEvents) {
        row.file = c.file;
        row.line = c.line;
        if (['execute', 'download', 'http'].includes(c.kind)) row.kind = c.kind;
      }
      const failed = c.state === 'failed' ? 1 : 0;
      if (c.state !== 'dry_run') {
        row.requests++;
        row.retries += c.retries;
        row.failures += failed;
      }
      if (c.write) row.writes++;
      if (c.sent_at === null) continue;
      const status = c.state === 'failed' ? 'failed' : c.state === 'intent' ? unfinished : 'ok';
      const end = c.latency_ms === null ? null : c.sent_at + c.latency_ms;
      row.callBars.add(c.attempt, c.sent_at, end, status);
      for (const note of loops) note(c.attempt, c.sent_at, end, status, 1, failed);
    }
    return finish([...roots.values()], axis);
  }

  /** The row of a step path (made on first sight, with its ancestors), its visit counted, and its iterations. */
  private place(roots: Map<string, Row>, path: string): { row: Row; loops: LoopNote[] } {
    const segs = segmentsOf(path);
    let level = roots;
    let key = '';
    let concrete = '';
    let row: Row | undefined;
    let open: Iteration | undefined;
    const loops: LoopNote[] = [];
    for (let i = 0; i < segs.length; i++) {
      const seg = segs[i] as Segment;
      key = key === '' ? seg.ref : `${key}.${seg.ref}`;
      concrete = concrete === '' ? seg.ref : `${concrete}.${seg.ref}`;
      let next = level.get(key);
      if (!next) {
        next = new Row(key, i, seg.ref);
        level.set(key, next);
      }
      // The row just entered is a part of the iteration its parent loop is in.
      if (open) loops.push(loopNote(open, next));
      open = undefined;
      row = next;
      if (seg.index !== undefined && i < segs.length - 1) {
        concrete = `${concrete}[${seg.index}]`;
        open = iterationOf(row, concrete, seg.index);
        key = `${key}[]`;
      }
      level = row.children;
    }
    const own = row as Row;
    if (own.visits.size < VISITS_KEPT) own.visits.add(path);
    return { row: own, loops };
  }
}

/** Adds one trace to an iteration and to its part (the loop's child step it ran in). */
type LoopNote = (
  attempt: number,
  start: number,
  end: number | null,
  status: string,
  req: number,
  failed: number,
) => void;

function loopNote(it: Iteration, part: Row): LoopNote {
  return (attempt, start, end, status, req, failed) => {
    it.bars.add(attempt, start, end, status);
    it.requests += req;
    it.failures += failed;
    let p = it.parts.get(part.key);
    if (!p) {
      p = { row: part, bars: new BarSet(), requests: 0 };
      it.parts.set(part.key, p);
    }
    p.bars.add(attempt, start, end, status);
    p.requests += req;
  };
}

function iterationOf(row: Row, key: string, index: number): Iteration | undefined {
  let it = row.iterations.get(key);
  if (!it && row.iterations.size < ITERATIONS_KEPT) {
    it = { key, index, bars: new BarSet(), requests: 0, failures: 0, parts: new Map() };
    row.iterations.set(key, it);
  }
  return it;
}

/** Rows as the view shows them, children in recipe order, counters summed up the tree. */
function finish(rows: Row[], axis: Axis): StepView[] {
  return rows
    .sort((a, b) => a.line - b.line || a.label.localeCompare(b.label))
    .map((r) => {
      const children = finish([...r.children.values()], axis);
      const bars = r.fromEvents ? r.eventBars : r.callBars;
      const last = bars.lastAttempt;
      let status = bars.last(axis).status;
      for (const c of children) if (c.bars.some((b) => b.attempt === last)) status = worse(status, c.status);
      const sum = (f: (v: StepView) => number, own: number): number => children.reduce((n, c) => n + f(c), own);
      const view: StepView = {
        key: r.key,
        // A step without an id is journaled as kind@pointer; the page says kind@line, as the report does.
        label: r.label.includes('@/') ? `${r.kind}@${r.line}` : r.label,
        kind: r.kind,
        file: r.file,
        line: r.line,
        depth: r.depth,
        status,
        bars: bars.bars(axis),
        visits: r.visits.size,
        requests: sum((c) => c.requests, r.requests),
        retries: sum((c) => c.retries, r.retries),
        failures: sum((c) => c.failures, r.failures),
        writes: sum((c) => c.writes, r.writes),
        error_code: r.errorCode,
        children,
        ...(r.iterations.size > 0 ? { iterations: iterationsOf(r, axis) } : {}),
      };
      return view;
    });
}

function iterationsOf(row: Row, axis: Axis): { total: number; shown: IterationView[] } {
  const all = [...row.iterations.values()].sort((a, b) => a.index - b.index || a.key.localeCompare(b.key));
  const bad = all.filter((it) => it.failures > 0 || isBad(it.bars.last(axis).status)).slice(0, ITERATIONS_SHOWN / 2);
  const picked = new Set(bad);
  for (const it of all) {
    if (picked.size >= ITERATIONS_SHOWN) break;
    picked.add(it);
  }
  const shown = [...picked]
    .sort((a, b) => a.index - b.index || a.key.localeCompare(b.key))
    .map((it) => ({
      key: it.key,
      index: it.index,
      bar: it.bars.last(axis),
      requests: it.requests,
      failures: it.failures,
      parts: [...it.parts.values()]
        .sort((a, b) => a.row.line - b.row.line)
        .map((p) => ({ label: p.row.label, kind: p.row.kind, bar: p.bars.last(axis), requests: p.requests })),
    }));
  return { total: row.iterations.size, shown };
}

function isBad(status: string): boolean {
  return status === 'failed' || status === 'interrupted' || status === 'continued';
}
