import type { JSX } from 'preact';
import { useState } from 'preact/hooks';
import type { AttemptView } from '../../run-api-types.js';
import { Requests } from '../components/requests.js';
import { RunActions } from '../components/run-actions.js';
import { SourceView } from '../components/source-view.js';
import { Waterfall } from '../components/waterfall.js';
import { formatDuration, formatJson, formatTime, plural, statusClass } from '../format.js';
import { recipeHref } from './recipe.js';
import { useRun } from '../use-run.js';
import { TableHead } from '../components/table-head.js';

/**
 * One run: what it was (recipe, inputs with secrets masked), how it went (status, the error beside the
 * recipe source with the failing line marked), its steps as a waterfall, its requests and writes, its
 * resumes, and its outputs. A running run follows the journal live.
 */
export function RunPage(props: { runId: string }): JSX.Element {
  const [tick, setTick] = useState(0);
  const { loaded, live } = useRun(props.runId, tick);
  const [selected, setSelected] = useState<number | undefined>(undefined);
  if (loaded.state === 'loading') return <p class="muted">Loading run {props.runId}…</p>;
  if (loaded.state === 'error')
    return (
      <p class="error-box" role="alert">
        {loaded.message}
      </p>
    );
  const v = loaded.data;
  const r = v.run;
  return (
    <section class="run">
      <div class="page-head">
        <p class="crumbs">
          <a href="/runs">Runs</a> / <span class="mono">{r.run_id}</span>
        </p>
        <h1>{r.recipe}</h1>
        <span class={`badge ${statusClass(r.status)}`} data-testid="run-status">
          {r.status}
        </span>
        {r.dry_run ? <span class="badge warn">dry run</span> : null}
        {live ? (
          <span class="badge running live" role="status">
            live
          </span>
        ) : null}
      </div>
      <dl class="facts-row">
        <Fact k="Started" v={formatTime(r.started_at)} />
        {r.origin !== null ? <Fact k="Started by" v={r.origin} /> : null}
        <Fact k="Duration" v={formatDuration(r.duration_ms)} />
        <Fact k="Requests" v={`${v.totals.requests}${v.totals.failed ? ` (${v.totals.failed} failed)` : ''}`} />
        <Fact k="Retries" v={String(v.totals.retries)} />
        <Fact k="Writes" v={String(v.totals.writes)} />
        {v.totals.dry_run_writes > 0 ? <Fact k="Dry-run writes" v={String(v.totals.dry_run_writes)} /> : null}
        <div>
          <dt>File</dt>
          <dd class="mono">
            {/* A path relative to the console's folder may be one of its recipe pages (the graph). */}
            {r.file.startsWith('/') ? r.file : <a href={recipeHref(r.file)}>{r.file}</a>}
          </dd>
        </div>
        <Packages options={r.options} />
      </dl>
      <RunActions runId={r.run_id} status={r.status} reload={() => setTick((n) => n + 1)} />
      {r.error ? (
        <div class="error-box" role="alert">
          <h2>
            Failed: <code>{r.error.code}</code>
          </h2>
          <p class="error-message">{r.error.message}</p>
          {r.error.file !== undefined ? (
            <p class="mono muted">
              {r.error.file}:{r.error.line}:{r.error.column}
            </p>
          ) : null}
        </div>
      ) : null}
      {v.writes_in_doubt.length > 0 ? (
        <div class="error-box">
          <h2>{plural(v.writes_in_doubt.length, 'write')} in doubt</h2>
          <ul>
            {v.writes_in_doubt.map((w) => (
              <li key={w.call_key} class="mono">
                {w.step_path} {w.method} {w.entity}.{w.action}
              </li>
            ))}
          </ul>
          <p class="muted">
            <code>recipe resume {r.run_id}</code> settles them (see <code>--assume-sent</code> and{' '}
            <code>--assume-not-sent</code>).
          </p>
        </div>
      ) : null}
      {v.truncated ? <p class="muted">{v.truncated}</p> : null}
      <div class={v.source ? 'split run-split' : ''}>
        <div class="pane">
          <h2>Steps</h2>
          {v.steps.length > 0 ? (
            <Waterfall steps={v.steps} axis={v.axis_ms} onSelect={setSelected} />
          ) : (
            <p class="muted">No step recorded yet.</p>
          )}
        </div>
        {v.source ? (
          <div class="pane">
            <h2 class="pane-title">
              {v.source.file}
              {v.source.changed ? <span class="badge warn">changed since the run</span> : null}
            </h2>
            <SourceView
              source={v.source.text}
              mark={selected ?? v.source.line ?? undefined}
              kind={selected === undefined && v.source.line !== null ? 'error' : 'select'}
            />
          </div>
        ) : null}
      </div>
      {v.attempts.length > 1 ? <Attempts attempts={v.attempts} /> : null}
      <Requests runId={r.run_id} seq={v.seq} />
      <div class="io-values">
        <section aria-labelledby="inputs-h">
          <h2 id="inputs-h">Inputs</h2>
          <p class="muted">Secret values are masked (***) before the journal keeps them.</p>
          <pre class="json" tabIndex={0}>
            {formatJson(r.inputs)}
          </pre>
        </section>
        <section aria-labelledby="outputs-h">
          <h2 id="outputs-h">Outputs</h2>
          {r.outputs ? (
            <pre class="json" tabIndex={0}>
              {formatJson(r.outputs)}
            </pre>
          ) : (
            <p class="muted">{r.status === 'running' ? 'Not yet.' : 'None.'}</p>
          )}
        </section>
      </div>
    </section>
  );
}

/** The shared packages the run called and the commit or version each resolved to (journaled at run start). */
function Packages(props: { options: Readonly<Record<string, unknown>> }): JSX.Element | null {
  const list = Array.isArray(props.options.packages) ? (props.options.packages as unknown[]) : [];
  const packages = list.filter(
    (p): p is { key: string; resolved: string } =>
      typeof p === 'object' &&
      p !== null &&
      typeof (p as { key?: unknown }).key === 'string' &&
      typeof (p as { resolved?: unknown }).resolved === 'string',
  );
  if (packages.length === 0) return null;
  return (
    <div>
      <dt>Packages</dt>
      <dd class="mono" data-testid="run-packages">
        {packages.map((p) => (
          <div key={p.key} title={p.resolved}>
            {p.key} → {p.resolved.slice(0, 12)}
          </div>
        ))}
      </dd>
    </div>
  );
}

function Fact(props: { k: string; v: string }): JSX.Element {
  return (
    <div>
      <dt>{props.k}</dt>
      <dd>{props.v}</dd>
    </div>
  );
}

function Attempts(props: { attempts: readonly AttemptView[] }): JSX.Element {
  return (
    <section aria-labelledby="attempts-h">
      <h2 id="attempts-h">Attempts and resumes</h2>
      <div class="scroll-x">
        <table class="attempts">
          <TableHead
            columns={[
              '#',
              'Kind',
              'Status',
              'Started',
              { num: 'Requests' },
              { num: 'Writes' },
              { num: 'Replayed' },
              'Options',
            ]}
          />
          <tbody>
            {props.attempts.map((a) => (
              <tr key={a.attempt}>
                <th scope="row">{a.attempt}</th>
                <td>{a.kind}</td>
                <td>
                  <span class={`badge ${statusClass(a.status)}`}>{a.status}</span>
                </td>
                <td title={a.started_at}>{formatTime(a.started_at)}</td>
                <td class="num">{a.requests}</td>
                <td class="num">{a.writes}</td>
                <td class="num">{a.replayed_calls}</td>
                <td class="mono muted">{Object.keys(a.options).length > 0 ? JSON.stringify(a.options) : '–'}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}
