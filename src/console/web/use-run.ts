import { useEffect, useState } from 'preact/hooks';
import type { RunView } from '../run-api-types.js';
import { getJson } from './api.js';
import type { Loaded } from './use-data.js';

/**
 * A run's view, kept up to date while it runs: loaded once, then, for a running run, replaced by each `view`
 * event of /api/runs/:id/live (server-sent events) until the server sends `end` (the run is no longer
 * running). `live` is true while the stream is open. A new `tick` reads it again (after an action).
 */
export function useRun(runId: string, tick = 0): { loaded: Loaded<RunView>; live: boolean } {
  const [loaded, setLoaded] = useState<Loaded<RunView>>({ state: 'loading' });
  const [live, setLive] = useState(false);
  useEffect(() => {
    const ctl = new AbortController();
    setLive(false);
    let source: EventSource | undefined;
    const path = `/api/runs/${encodeURIComponent(runId)}`;
    getJson<RunView>(path, ctl.signal).then(
      (data) => {
        setLoaded({ state: 'ok', data });
        if (data.run.status !== 'running' || ctl.signal.aborted) return;
        source = new EventSource(`${path}/live`);
        setLive(true);
        source.addEventListener('view', (e) => {
          setLoaded({ state: 'ok', data: JSON.parse((e as MessageEvent<string>).data) as RunView });
        });
        source.addEventListener('end', () => {
          source?.close();
          setLive(false);
        });
      },
      (err: unknown) => {
        if (!ctl.signal.aborted) setLoaded({ state: 'error', message: (err as Error).message });
      },
    );
    return () => {
      ctl.abort();
      source?.close();
    };
  }, [runId, tick]);
  return { loaded, live };
}
