import type { JSX } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import type { FleetView } from '../../api-types.js';
import { TableHead } from '../components/table-head.js';
import { formatDuration, formatTime } from '../format.js';
import { useData } from '../use-data.js';

/** How often the page reads the fleet again: workers, jobs and leases move on their own. */
const REFRESH_MS = 3000;

/**
 * The fleet (`recipe fleet status`): its live workers and the runs each holds, the queue's job counts, the
 * schedules and the leases, read again every few seconds while the page is open.
 */
export function FleetPage(): JSX.Element {
  const [tick, setTick] = useState(0);
  const data = useData<FleetView>('/api/fleet', tick);
  useEffect(() => {
    const t = setTimeout(() => setTick((n) => n + 1), REFRESH_MS);
    return () => clearTimeout(t);
  }, [tick]);
  return (
    <section>
      <div class="page-head">
        <h1>Fleet</h1>
        <p class="muted">{data.state === 'ok' ? `queue ${data.data.queue}` : ''}</p>
        <button type="button" class="secondary" onClick={() => setTick((n) => n + 1)}>
          Refresh
        </button>
      </div>
      {data.state === 'loading' ? <p class="muted">Reading the fleet…</p> : null}
      {data.state === 'error' ? (
        <p class="error-box" role="alert">
          {data.message}
        </p>
      ) : null}
      {data.state === 'ok' ? <FleetTables fleet={data.data} /> : null}
    </section>
  );
}

function FleetTables({ fleet }: { fleet: FleetView }): JSX.Element {
  const ago = (iso: string): string => `${Math.max(0, Math.round((fleet.at - Date.parse(iso)) / 1000))}s ago`;
  const j = fleet.jobs;
  return (
    <>
      <h2 id="fleet-workers">Workers ({fleet.workers.length})</h2>
      {fleet.workers.length === 0 ? (
        <p class="empty">No live worker: `recipe worker` starts one.</p>
      ) : (
        <div class="scroll-x">
          <table class="fleet-workers" aria-labelledby="fleet-workers">
            <TableHead
              columns={[
                'Worker',
                'Host',
                { num: 'PID' },
                'Version',
                { num: 'Concurrency' },
                'Current runs',
                'Heartbeat',
              ]}
            />
            <tbody>
              {fleet.workers.map((w) => (
                <tr key={w.id} data-worker={w.id}>
                  <th scope="row" class="mono">
                    {w.id}
                  </th>
                  <td class="mono">{w.host}</td>
                  <td class="num">{w.pid}</td>
                  <td class="mono">{w.version}</td>
                  <td class="num">{w.concurrency}</td>
                  <td>
                    {w.current.length === 0 ? (
                      <span class="muted">idle</span>
                    ) : (
                      w.current.map((c, i) => (
                        <span key={c.job_id}>
                          {i > 0 ? ', ' : ''}
                          <a class="mono" data-nav href={`/runs/${encodeURIComponent(c.run_id)}`}>
                            {c.run_id}
                          </a>
                          {c.kind === 'chunk' ? <span class="muted"> (chunk {c.chunk ?? ''})</span> : null}
                        </span>
                      ))
                    )}
                  </td>
                  <td title={w.heartbeat_at}>{ago(w.heartbeat_at)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <h2 id="fleet-queue">Queue</h2>
      <table class="fleet-queue" aria-labelledby="fleet-queue">
        <TableHead columns={[{ num: 'Waiting' }, { num: 'Active' }, { num: 'Delayed' }, { num: 'Failed' }]} />
        <tbody>
          <tr data-testid="fleet-jobs">
            <td class="num">{j.waiting}</td>
            <td class="num">{j.active}</td>
            <td class="num">{j.delayed}</td>
            <td class="num">{j.failed}</td>
          </tr>
        </tbody>
      </table>
      <h2 id="fleet-schedules">Schedules</h2>
      {fleet.schedules.length === 0 ? (
        <p class="empty">No schedules: `recipe schedule add` makes one.</p>
      ) : (
        <table class="fleet-schedules" aria-labelledby="fleet-schedules">
          <TableHead columns={['Name', 'Next tick', 'State']} />
          <tbody>
            {fleet.schedules.map((s) => (
              <tr key={s.name} data-schedule={s.name}>
                <th scope="row" class="mono">
                  {s.name}
                </th>
                <td title={s.next ?? ''}>{formatTime(s.next)}</td>
                <td>
                  <span class={`badge ${s.paused ? 'warn' : 'ok'}`}>{s.paused ? 'paused' : 'active'}</span>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <h2 id="fleet-leases">Leases</h2>
      {fleet.leases.length === 0 ? (
        <p class="empty">No run is held now.</p>
      ) : (
        <table class="fleet-leases" aria-labelledby="fleet-leases">
          <TableHead columns={['Run', 'Holder', 'Expires in']} />
          <tbody>
            {fleet.leases.map((l) => (
              <tr key={`${l.run_id}/${l.part ?? ''}`} data-lease={l.run_id}>
                <th scope="row">
                  <a class="mono" href={`/runs/${encodeURIComponent(l.run_id)}`}>
                    {l.run_id}
                  </a>
                  {l.part !== null ? <span class="muted"> ({l.part})</span> : null}
                </th>
                <td class="mono">{l.holder ?? '–'}</td>
                <td>{formatDuration(l.expires_in_ms)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </>
  );
}
