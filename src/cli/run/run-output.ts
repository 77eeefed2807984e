import type { RunEvent, StepProgress } from '../../run/index.js';

/** How the human output may look: animated in place (a terminal), plain lines, or nothing. */
export interface ViewOptions {
  readonly animate: boolean;
  readonly color: boolean;
  readonly quiet: boolean;
  readonly verbose: boolean;
  readonly write: (text: string) => void;
}

interface Line {
  step: StepProgress;
  status: string | null;
  startedAt: number;
  endedAt: number | null;
}

const REDRAW_MS = 80;

/**
 * Progress of the top-level steps on stderr: one line per step that updates in place on a terminal
 * (records paged, items done of total, requests, retries), or one plain line per finished step otherwise.
 * Log lines are printed above the progress block.
 */
export class ProgressView {
  private readonly lines = new Map<string, Line>();
  private drawn = 0;
  private lastDraw = 0;

  constructor(private readonly opts: ViewOptions) {}

  onEvent(e: RunEvent): void {
    if (this.opts.quiet || e.step.depth !== 0) return;
    const now = Date.now();
    let line = this.lines.get(e.step.key);
    if (!line) {
      line = { step: e.step, status: null, startedAt: now, endedAt: null };
      this.lines.set(e.step.key, line);
    }
    line.step = e.step;
    if (e.type === 'step-end') {
      line.status = e.status;
      line.endedAt = now;
      // A finished step is printed once, above the block; only running steps are redrawn in place.
      this.clear();
      this.lines.delete(e.step.key);
      this.opts.write(`${this.format(line)}\n`);
      if (this.opts.animate) this.draw(now);
      return;
    }
    if (this.opts.animate && (e.type === 'step-start' || now - this.lastDraw >= REDRAW_MS)) this.draw(now);
  }

  /** A log line from the run (log steps, warnings, --verbose debug lines). */
  log(level: string, message: string): void {
    if (level === 'debug' && !this.opts.verbose) return;
    if (this.opts.quiet && level !== 'warn') return;
    const prefix =
      level === 'warn' ? this.paint('33', 'warning: ') : level === 'debug' ? this.paint('2', 'debug: ') : '';
    this.clear();
    this.opts.write(`${prefix}${message}\n`);
    if (this.opts.animate) this.draw(Date.now());
  }

  /** Writes text above the block (e.g. the embedded-service notice); --quiet silences it too. */
  note(message: string): void {
    if (this.opts.quiet) return;
    this.clear();
    this.opts.write(`${message}\n`);
    if (this.opts.animate) this.draw(Date.now());
  }

  /** Leaves the final state of the block on screen. */
  finish(): void {
    if (this.opts.animate) this.draw(Date.now());
    this.drawn = 0;
  }

  private clear(): void {
    if (!this.opts.animate || this.drawn === 0) return;
    this.opts.write(`\x1b[${this.drawn}A\x1b[J`);
    this.drawn = 0;
  }

  private draw(now: number): void {
    this.clear();
    const text = [...this.lines.values()].map((l) => this.format(l, now)).join('\n');
    if (!text) return;
    this.opts.write(`${text}\n`);
    this.drawn = this.lines.size;
    this.lastDraw = now;
  }

  private format(line: Line, now = Date.now()): string {
    const s = line.step;
    const mark =
      line.status === null
        ? this.paint('36', '…')
        : line.status === 'ok'
          ? this.paint('32', '✓')
          : line.status === 'skipped'
            ? this.paint('2', '-')
            : line.status === 'continued'
              ? this.paint('33', '!')
              : this.paint('31', '✗');
    const parts: string[] = [];
    if (s.total !== null) parts.push(`${s.done}/${s.total} done`);
    else if (s.done > 0) parts.push(`${s.done} items`);
    if (s.records > 0) parts.push(`${s.records} record${s.records === 1 ? '' : 's'}`);
    if (s.requests > 0) parts.push(`${s.requests} request${s.requests === 1 ? '' : 's'}`);
    if (s.retries > 0) parts.push(`${s.retries} retr${s.retries === 1 ? 'y' : 'ies'}`);
    if (line.status === 'skipped') parts.push('skipped');
    const ms = (line.endedAt ?? now) - line.startedAt;
    parts.push(ms >= 1000 ? `${(ms / 1000).toFixed(1)} s` : `${ms} ms`);
    return `${mark} ${s.id} (${s.kind})  ${parts.join(' · ')}`;
  }

  private paint(code: string, text: string): string {
    return this.opts.color ? `\x1b[${code}m${text}\x1b[0m` : text;
  }
}

/** The outputs for a person: scalars on one line, lists of flat records as a table, anything else as JSON. */
export function formatOutputs(outputs: Record<string, unknown>): string {
  const blocks: string[] = [];
  for (const [name, value] of Object.entries(outputs)) {
    if (value === null || typeof value !== 'object') {
      blocks.push(
        `${name}: ${value === undefined ? '(nothing)' : typeof value === 'string' ? value : JSON.stringify(value)}`,
      );
      continue;
    }
    const table = Array.isArray(value) ? formatTable(value) : null;
    blocks.push(`${name}:\n${table ?? indent(JSON.stringify(value, null, 2))}`);
  }
  return blocks.length ? `${blocks.join('\n')}\n` : '';
}

function formatTable(rows: unknown[]): string | null {
  if (rows.length === 0 || rows.length > 500) return null;
  const flat = rows.every(
    (r) =>
      r !== null &&
      typeof r === 'object' &&
      !Array.isArray(r) &&
      Object.values(r).every((v) => v === null || typeof v !== 'object'),
  );
  if (!flat) return null;
  const records = rows as Record<string, unknown>[];
  const columns = [...new Set(records.flatMap((r) => Object.keys(r)))];
  const cell = (v: unknown): string => (v === null || v === undefined ? '' : String(v));
  const widths = columns.map((c) => Math.max(c.length, ...records.map((r) => cell(r[c]).length)));
  const numeric = columns.map((c) =>
    records.every((r) => typeof r[c] === 'number' || r[c] === undefined || r[c] === null),
  );
  const render = (values: string[], head = false): string =>
    `  ${values.map((v, i) => (numeric[i] && !head ? v.padStart(widths[i]!) : v.padEnd(widths[i]!))).join('  ')}`.trimEnd();
  return [
    render(columns, true),
    render(
      widths.map((w) => '-'.repeat(w)),
      true,
    ),
    ...records.map((r) => render(columns.map((c) => cell(r[c])))),
  ].join('\n');
}

function indent(text: string): string {
  return text
    .split('\n')
    .map((l) => `  ${l}`)
    .join('\n');
}
