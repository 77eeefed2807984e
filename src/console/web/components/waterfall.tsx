import type { JSX } from 'preact';
import { useState } from 'preact/hooks';
import type { IterationView, StepView, TimeBar } from '../../run-api-types.js';
import { formatDuration, plural, statusClass } from '../format.js';

/**
 * A run's steps as a tree with a timing waterfall: one row per step (a step inside a loop is one row over
 * all its iterations), its bars on the run's time axis (one per attempt: a resume's bars follow the
 * run's), and, for a loop, its iterations behind a button (failed ones first among those kept).
 */
export function Waterfall(props: {
  steps: readonly StepView[];
  axis: number;
  onSelect: (line: number) => void;
}): JSX.Element {
  const axis = Math.max(1, props.axis);
  return (
    <div class="waterfall" role="table" aria-label="Steps and their timing">
      <div class="wf-row wf-head" role="row">
        <span role="columnheader">Step</span>
        <span role="columnheader" class="wf-axis">
          <span>0</span>
          <span>{formatDuration(axis / 2)}</span>
          <span>{formatDuration(axis)}</span>
        </span>
        <span role="columnheader" class="num">
          Took
        </span>
        <span role="columnheader" class="num">
          Requests
        </span>
      </div>
      {props.steps.map((s) => (
        <StepRow key={s.key} step={s} axis={axis} onSelect={props.onSelect} />
      ))}
    </div>
  );
}

function StepRow(props: { step: StepView; axis: number; onSelect: (line: number) => void }): JSX.Element {
  const { step: s, axis } = props;
  const [open, setOpen] = useState(false);
  // Summed over attempts: a resume's share is added to the run's.
  const took = s.bars.length > 0 ? s.bars.reduce((n, b) => n + (b.end ?? axis) - b.start, 0) : null;
  return (
    <>
      <div
        class={`wf-row status-${s.status}`}
        role="row"
        data-nav
        tabIndex={0}
        data-step={s.key}
        onClick={() => props.onSelect(s.line)}
        onKeyDown={(e) => {
          if (e.key === 'Enter') props.onSelect(s.line);
          if ((e.key === 'ArrowRight' || e.key === ' ') && s.iterations) {
            e.preventDefault();
            setOpen(e.key === ' ' ? !open : true);
          }
          if (e.key === 'ArrowLeft' && s.iterations) setOpen(false);
        }}
      >
        <span role="cell" class="wf-label" style={{ paddingLeft: `${s.depth * 1.1}rem` }}>
          <span class={`badge ${statusClass(s.status)}`}>{s.status}</span> <span class="wf-name">{s.label}</span>{' '}
          <span class="muted">
            {s.kind} · line {s.line}
          </span>
          {s.visits > 1 ? <span class="muted"> · ×{s.visits}</span> : null}
          {s.retries > 0 ? <span class="badge warn">{plural(s.retries, 'retry')}</span> : null}
          {s.error_code ? <code class="err-code">{s.error_code}</code> : null}
          {s.iterations ? (
            <button
              type="button"
              class="link"
              aria-expanded={open}
              onClick={(e) => {
                e.stopPropagation();
                setOpen(!open);
              }}
            >
              {open ? '▾' : '▸'} {plural(s.iterations.total, 'iteration')}
            </button>
          ) : null}
        </span>
        <span role="cell" class="wf-track">
          {s.bars.map((b) => (
            <Bar key={b.attempt} bar={b} axis={axis} />
          ))}
        </span>
        <span role="cell" class="num">
          {formatDuration(took)}
        </span>
        <span role="cell" class="num">
          {s.requests}
          {s.failures > 0 ? <span class="bad"> ({s.failures} failed)</span> : null}
        </span>
      </div>
      {open && s.iterations ? <Iterations step={s} axis={axis} /> : null}
      {s.children.map((c) => (
        <StepRow key={c.key} step={c} axis={axis} onSelect={props.onSelect} />
      ))}
    </>
  );
}

function Iterations(props: { step: StepView; axis: number }): JSX.Element {
  const its = props.step.iterations as { total: number; shown: readonly IterationView[] };
  return (
    <div class="wf-iterations" role="rowgroup" aria-label={`Iterations of ${props.step.label}`}>
      {its.shown.map((it) => (
        <div key={it.key} class={`wf-row wf-iteration status-${it.bar.status}`} role="row" data-nav tabIndex={0}>
          <span role="cell" class="wf-label" style={{ paddingLeft: `${(props.step.depth + 1) * 1.1}rem` }}>
            <span class={`badge ${statusClass(it.bar.status)}`}>{it.bar.status}</span>{' '}
            <span class="mono">{it.key}</span> <span class="muted">{it.parts.map((p) => p.label).join(', ')}</span>
          </span>
          <span role="cell" class="wf-track">
            <Bar bar={it.bar} axis={props.axis} />
          </span>
          <span role="cell" class="num">
            {formatDuration((it.bar.end ?? props.axis) - it.bar.start)}
          </span>
          <span role="cell" class="num">
            {it.requests}
            {it.failures > 0 ? <span class="bad"> ({it.failures} failed)</span> : null}
          </span>
        </div>
      ))}
      {its.total > its.shown.length ? (
        <p class="muted wf-more">
          {its.shown.length} of {its.total} iterations shown (failed ones first)
        </p>
      ) : null}
    </div>
  );
}

function Bar(props: { bar: TimeBar; axis: number }): JSX.Element {
  const { bar, axis } = props;
  const end = bar.end ?? axis;
  const left = (bar.start / axis) * 100;
  const width = Math.max(0, ((end - bar.start) / axis) * 100);
  return (
    <span
      class={`bar ${statusClass(bar.status)}${bar.attempt > 1 ? ' resumed' : ''}${bar.end === null ? ' open' : ''}`}
      style={{ left: `${left.toFixed(3)}%`, width: `${width.toFixed(3)}%` }}
      title={`attempt ${bar.attempt}: ${formatDuration(bar.start)} → ${bar.end === null ? 'still running' : formatDuration(end)}`}
    />
  );
}
