import type { JSX } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import type { RequestsPage, RequestView } from '../../run-api-types.js';
import { getJson } from '../api.js';
import { formatDuration, statusClass } from '../format.js';
import { TableHead } from './table-head.js';

/**
 * A run's requests in journal order, a page at a time ("More" reads the next one by seq), all or writes
 * only. Reloaded when `seq` moves (a running run's new requests).
 */
export function Requests(props: { runId: string; seq: number }): JSX.Element {
  const [writesOnly, setWritesOnly] = useState(false);
  const [rows, setRows] = useState<readonly RequestView[]>([]);
  const [next, setNext] = useState<number | null>(null);
  const [error, setError] = useState<string | undefined>(undefined);
  const load = async (after: number, append: boolean, signal?: AbortSignal): Promise<void> => {
    const q = new URLSearchParams({ after_seq: String(after), limit: '100', writes_only: String(writesOnly) });
    try {
      const page = await getJson<RequestsPage>(
        `/api/runs/${encodeURIComponent(props.runId)}/requests?${q.toString()}`,
        signal,
      );
      setRows((old) => (append ? [...old, ...page.requests] : page.requests));
      setNext(page.next);
      setError(undefined);
    } catch (err) {
      if (!signal?.aborted) setError((err as Error).message);
    }
  };
  useEffect(() => {
    const ctl = new AbortController();
    void load(0, false, ctl.signal);
    return () => ctl.abort();
  }, [props.runId, props.seq, writesOnly]);
  return (
    <section aria-labelledby="requests-h">
      <div class="section-head">
        <h2 id="requests-h">Requests</h2>
        <label class="check">
          <input
            type="checkbox"
            checked={writesOnly}
            onChange={(e) => setWritesOnly((e.target as HTMLInputElement).checked)}
          />{' '}
          writes only
        </label>
      </div>
      {error ? <p class="error-box">{error}</p> : null}
      {rows.length === 0 && !error ? <p class="muted">No {writesOnly ? 'writes' : 'requests'}.</p> : null}
      {rows.length > 0 ? (
        <div class="scroll-x">
          <table class="requests">
            <caption class="sr-only">Requests of this run</caption>
            <TableHead columns={['Step', 'Request', 'Status', { num: 'Latency' }, { num: 'Retries' }]} />
            <tbody>
              {rows.map((r) => (
                <RequestRow key={r.call_key} r={r} />
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
      {next !== null ? (
        <button type="button" class="secondary" onClick={() => void load(next, true)}>
          More requests
        </button>
      ) : null}
    </section>
  );
}

function RequestRow(props: { r: RequestView }): JSX.Element {
  const { r } = props;
  const what = r.entity !== null ? `${r.entity}.${r.action ?? ''}` : r.kind;
  return (
    <tr class={`req state-${r.state}`} data-nav tabIndex={0}>
      <td class="mono">
        {r.step_path}
        {r.attempt > 1 ? <span class="badge muted">attempt {r.attempt}</span> : null}
      </td>
      <td>
        <span class="mono">{r.method}</span> {what}
        {r.write ? <span class="badge warn">write</span> : null}
        <div class="mono muted path" title={r.path}>
          {r.path}
        </div>
        {r.error ? (
          <div class="bad">
            <code>{r.error.code}</code> {r.error.message}
          </div>
        ) : null}
        {r.doubt ? <span class="badge failed">in doubt</span> : null}
        {r.settled_by ? <span class="badge muted">settled by {r.settled_by}</span> : null}
      </td>
      <td>
        <span class={`badge ${statusClass(r.state)}`}>{r.state === 'dry_run' ? 'dry run' : r.state}</span>{' '}
        {r.status !== null ? <span class="mono">{r.status}</span> : null}
      </td>
      <td class="num">{formatDuration(r.latency_ms)}</td>
      <td class="num">{r.retries}</td>
    </tr>
  );
}
