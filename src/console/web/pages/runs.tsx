import type { JSX } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import type { ConsoleInfo } from '../../api-types.js';
import type { RunListItem, RunsPage as RunsPageData, RunStatusName } from '../../run-api-types.js';
import { formatDuration, formatTime, plural, statusClass } from '../format.js';
import { navigate } from '../router.js';
import { useData } from '../use-data.js';
import { TableHead } from '../components/table-head.js';

const STATUSES: readonly RunStatusName[] = ['running', 'succeeded', 'failed', 'interrupted', 'cancelled'];
/** How often the list is read again while one of its runs is running. */
const REFRESH_MS = 3000;

/** Link to a run's page. */
export function runHref(runId: string): string {
  return `/runs/${encodeURIComponent(runId)}`;
}

/**
 * The runs of the journal, newest first, filtered by status and recipe (both kept in the address, so a
 * filtered list can be bookmarked), a page at a time: "Older" follows the journal's keyset cursor, the
 * browser's back button returns to the newer page.
 */
export function RunsPage(props: { info: ConsoleInfo | undefined; query: URLSearchParams }): JSX.Element {
  const journal = props.info?.journal;
  const status = props.query.get('status') ?? '';
  const recipe = props.query.get('recipe') ?? '';
  const before = props.query.get('before') ?? '';
  // The page size stays in the address like the filters (the API caps it at 200).
  const limit = props.query.get('limit') ?? '';
  const api = new URLSearchParams();
  if (status) api.set('status', status);
  if (recipe) api.set('recipe', recipe);
  if (before) api.set('before', before);
  api.set('limit', limit || '50');
  const [tick, setTick] = useState(0);
  const data = useData<RunsPageData>(`/api/runs?${api.toString()}`, tick);
  // While a run on this page is running, the list is read again (its status, duration and counters move).
  const running = data.state === 'ok' && data.data.runs.some((r) => r.status === 'running');
  useEffect(() => {
    if (!running) return;
    const t = setTimeout(() => setTick((n) => n + 1), REFRESH_MS);
    return () => clearTimeout(t);
  }, [running, tick]);
  const go = (changes: Record<string, string>): void => {
    const q = new URLSearchParams({ status, recipe, limit, ...changes });
    for (const [k, v] of [...q.entries()]) if (!v) q.delete(k);
    const text = q.toString();
    navigate(`/runs${text ? `?${text}` : ''}`);
  };
  return (
    <section>
      <div class="page-head">
        <h1>Runs</h1>
        <p class="muted">{data.state === 'ok' ? `newest first, from ${data.data.source}` : (journal?.path ?? '')}</p>
      </div>
      {journal && !journal.available ? (
        <div class="empty" role="status">
          <p>No runs to show: {journal.reason}.</p>
          <p>
            Meanwhile: the <a href="/recipes">recipes</a> drawn as graphs, and the <a href="/service">service</a> with
            its context store.
          </p>
        </div>
      ) : (
        <>
          <form
            class="toolbar"
            role="search"
            aria-label="Filter runs"
            onSubmit={(e) => {
              e.preventDefault();
              const form = new FormData(e.currentTarget);
              go({ status: String(form.get('status') ?? ''), recipe: String(form.get('recipe') ?? '').trim() });
            }}
          >
            <label>
              <span class="sr-only">Status</span>
              <select
                name="status"
                value={status}
                onChange={(e) => go({ status: (e.target as HTMLSelectElement).value })}
              >
                <option value="">every status</option>
                {STATUSES.map((s) => (
                  <option key={s} value={s}>
                    {s}
                  </option>
                ))}
              </select>
            </label>
            <label>
              <span class="sr-only">Recipe</span>
              <input
                type="search"
                name="recipe"
                data-filter
                placeholder="Recipe name or file, Enter  ( / )"
                defaultValue={recipe}
              />
            </label>
            <button type="submit" class="secondary">
              Filter
            </button>
            {status || recipe ? (
              <a class="clear" href="/runs">
                Clear filters
              </a>
            ) : null}
          </form>
          {data.state === 'loading' ? <p class="muted">Loading runs…</p> : null}
          {data.state === 'error' ? (
            <p class="error-box" role="alert">
              {data.message}
            </p>
          ) : null}
          {data.state === 'ok' ? <RunsTable runs={data.data.runs} filtered={Boolean(status || recipe)} /> : null}
          {data.state === 'ok' && (before || data.data.next) ? (
            <nav class="pager" aria-label="Pages">
              {before ? (
                <a href={`/runs?${new URLSearchParams(cleaned({ status, recipe, limit })).toString()}`}>Newest</a>
              ) : null}
              {data.data.next ? (
                <a
                  rel="next"
                  href={`/runs?${new URLSearchParams(cleaned({ status, recipe, limit, before: data.data.next })).toString()}`}
                >
                  Older →
                </a>
              ) : null}
            </nav>
          ) : null}
        </>
      )}
    </section>
  );
}

function cleaned(q: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(q).filter(([, v]) => v !== ''));
}

function RunsTable(props: { runs: readonly RunListItem[]; filtered: boolean }): JSX.Element {
  if (props.runs.length === 0)
    return (
      <p class="empty" role="status">
        {props.filtered ? 'No run matches these filters.' : 'No runs yet: `recipe run` records each run here.'}
      </p>
    );
  return (
    <table class="runs">
      <caption class="sr-only">Runs, newest first</caption>
      <TableHead
        columns={['Status', 'Recipe', 'Started', { num: 'Duration' }, { num: 'Requests' }, { num: 'Writes' }, 'Run']}
      />
      <tbody>
        {props.runs.map((r) => (
          <tr key={r.run_id} class={`run-row status-${r.status}`}>
            <td data-label="Status">
              <span class={`badge ${statusClass(r.status)}`}>{r.status}</span>
              {r.dry_run ? (
                <>
                  {' '}
                  <span class="badge warn">dry run</span>
                </>
              ) : null}
              {r.attempts > 1 ? (
                <>
                  {' '}
                  <span class="badge muted">{plural(r.attempts - 1, 'resume')}</span>
                </>
              ) : null}
            </td>
            <th scope="row" data-label="Recipe">
              <a data-nav href={runHref(r.run_id)}>
                {r.recipe}
              </a>
              {r.origin !== null ? (
                <span class="muted origin" data-testid="run-origin">
                  {' '}
                  by {r.origin}
                </span>
              ) : null}
            </th>
            <td data-label="Started" title={r.started_at}>
              {formatTime(r.started_at)}
            </td>
            <td data-label="Duration" class="num">
              {formatDuration(r.duration_ms)}
            </td>
            <td data-label="Requests" class="num">
              {r.requests}
            </td>
            <td data-label="Writes" class="num">
              {r.writes}
            </td>
            <td data-label="Run" class="mono muted">
              {r.run_id}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
