import type { JSX } from 'preact';
import { useState } from 'preact/hooks';
import type { ActionAnswer, ConsoleInfo, ScheduleView } from '../../api-types.js';
import { postAction } from '../api.js';
import { TableHead } from '../components/table-head.js';
import { formatDuration, formatTime } from '../format.js';
import { useData } from '../use-data.js';

/**
 * The fleet's schedules (`recipe schedule list`): when each fires, its next tick, paused or not, with Pause
 * and Resume (`recipe schedule pause|resume`), each a POST with the console's CSRF token.
 */
export function SchedulesPage(props: { info: ConsoleInfo | undefined }): JSX.Element {
  const [tick, setTick] = useState(0);
  const data = useData<{ schedules: ScheduleView[]; source: string }>('/api/schedules', tick);
  const [said, setSaid] = useState<{ text: string; error: boolean } | null>(null);
  const [busy, setBusy] = useState(false);
  const csrf = props.info?.actions.csrf_token;
  const act = async (name: string, verb: 'pause' | 'resume'): Promise<void> => {
    if (csrf === undefined) return;
    setBusy(true);
    setSaid(null);
    try {
      const a = await postAction<ActionAnswer>(`/api/schedules/${encodeURIComponent(name)}/${verb}`, {}, csrf);
      setSaid({ text: a.message, error: false });
    } catch (err) {
      setSaid({ text: (err as Error).message, error: true });
    } finally {
      setBusy(false);
      setTick((n) => n + 1);
    }
  };
  return (
    <section>
      <div class="page-head">
        <h1>Schedules</h1>
        <p class="muted">{data.state === 'ok' ? `of ${data.data.source}` : ''}</p>
        <button type="button" class="secondary" onClick={() => setTick((n) => n + 1)}>
          Refresh
        </button>
      </div>
      {said ? (
        <p class={said.error ? 'error-box' : 'muted'} role={said.error ? 'alert' : 'status'}>
          {said.text}
        </p>
      ) : null}
      {data.state === 'loading' ? <p class="muted">Reading the schedules…</p> : null}
      {data.state === 'error' ? <p class="error-box">{data.message}</p> : null}
      {data.state === 'ok' && data.data.schedules.length === 0 ? (
        <p class="empty">No schedules: `recipe schedule add` makes one.</p>
      ) : null}
      {data.state === 'ok' && data.data.schedules.length > 0 ? (
        <div class="scroll-x">
          <table class="schedules">
            <TableHead columns={['Name', 'Recipe', 'When', 'Next tick', 'State', '']} />
            <tbody>
              {data.data.schedules.map((s) => (
                <tr key={s.name} data-schedule={s.name}>
                  <th scope="row" class="mono">
                    {s.name}
                  </th>
                  <td class="mono">{s.recipe}</td>
                  <td class="mono">
                    {s.cron !== null ? `${s.cron}${s.tz ? ` (${s.tz})` : ''}` : `every ${formatDuration(s.every_ms)}`}
                    {s.jitter_ms !== null ? ` · jitter ${formatDuration(s.jitter_ms)}` : ''}
                  </td>
                  <td title={s.next ?? ''}>{formatTime(s.next)}</td>
                  <td>
                    <span class={`badge ${s.paused ? 'warn' : 'ok'}`}>{s.paused ? 'paused' : 'active'}</span>
                  </td>
                  <td>
                    <button
                      type="button"
                      class="secondary"
                      disabled={busy || csrf === undefined}
                      aria-label={`${s.paused ? 'Resume' : 'Pause'} schedule ${s.name}`}
                      onClick={() => void act(s.name, s.paused ? 'resume' : 'pause')}
                    >
                      {s.paused ? 'Resume' : 'Pause'}
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
    </section>
  );
}
