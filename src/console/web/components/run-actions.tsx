import type { JSX } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import type { ActionAnswer, CancelAnswer, ConsoleInfo } from '../../api-types.js';
import { postAction } from '../api.js';
import { useData } from '../use-data.js';

/** How often, and how many times, the page reads the run again after an action until its status moves. */
const WATCH_MS = 1000;
const WATCH_TIMES = 30;

/**
 * A run's actions: Cancel while it runs (with a reason), Redrive once it ended without success (a fleet: a
 * worker resumes it). Each is a POST with the console's CSRF token; `reload` reads the run again, every second
 * after an action until the status changes (a cancel shows through the live stream as well).
 */
export function RunActions(props: { runId: string; status: string; reload: () => void }): JSX.Element | null {
  const info = useData<ConsoleInfo>('/api/info');
  const [reason, setReason] = useState('');
  const [allowChanged, setAllowChanged] = useState(false);
  const [retryFailed, setRetryFailed] = useState(false);
  const [busy, setBusy] = useState(false);
  const [said, setSaid] = useState<{ text: string; error: boolean } | null>(null);
  const [watch, setWatch] = useState<{ from: string; left: number } | null>(null);
  const { status, reload } = props;
  useEffect(() => {
    if (!watch) return;
    if (status !== watch.from || watch.left <= 0) {
      setWatch(null);
      return;
    }
    const t = setTimeout(() => {
      setWatch({ from: watch.from, left: watch.left - 1 });
      reload();
    }, WATCH_MS);
    return () => clearTimeout(t);
  }, [watch, status]); // reload is a new closure each render: the timer must not restart with it
  if (info.state !== 'ok') return null;
  const actions = info.data.actions;
  const canCancel = status === 'running' && actions.cancel_unavailable === null;
  const ended = status === 'failed' || status === 'cancelled' || status === 'interrupted';
  const canRedrive = ended && actions.redrive_unavailable === null;
  if (!canCancel && !canRedrive) {
    return ended && actions.redrive_unavailable !== null ? (
      <p class="muted run-actions-note">Redrive: {actions.redrive_unavailable}.</p>
    ) : null;
  }
  const base = `/api/runs/${encodeURIComponent(props.runId)}`;
  const act = async (path: string, body: Record<string, unknown>, done: (answer: unknown) => string): Promise<void> => {
    setBusy(true);
    setSaid(null);
    try {
      const answer = await postAction<unknown>(path, body, actions.csrf_token);
      setSaid({ text: done(answer), error: false });
      setWatch({ from: status, left: WATCH_TIMES });
      reload();
    } catch (err) {
      setSaid({ text: (err as Error).message, error: true });
    } finally {
      setBusy(false);
    }
  };
  return (
    <section class="run-actions" aria-label="Actions">
      {canCancel ? (
        <form
          onSubmit={(e) => {
            e.preventDefault();
            void act(`${base}/cancel`, reason.trim() ? { reason } : {}, (a) => {
              const c = a as CancelAnswer;
              return `Cancel requested (attempt ${c.attempt}): the run stops within a second.`;
            });
          }}
        >
          <input
            type="text"
            aria-label="Reason"
            placeholder="Reason (optional)"
            maxLength={500}
            value={reason}
            onInput={(e) => setReason((e.target as HTMLInputElement).value)}
          />
          <button type="submit" class="danger" disabled={busy}>
            Cancel run
          </button>
        </form>
      ) : null}
      {canRedrive ? (
        <form
          onSubmit={(e) => {
            e.preventDefault();
            void act(
              `${base}/redrive`,
              { allow_changed: allowChanged, retry_failed_items: retryFailed },
              (a) => (a as ActionAnswer).message,
            );
          }}
        >
          <label>
            <input
              type="checkbox"
              checked={allowChanged}
              onChange={(e) => setAllowChanged((e.target as HTMLInputElement).checked)}
            />{' '}
            allow a changed recipe
          </label>
          <label>
            <input
              type="checkbox"
              checked={retryFailed}
              onChange={(e) => setRetryFailed((e.target as HTMLInputElement).checked)}
            />{' '}
            retry failed items
          </label>
          <button type="submit" class="secondary" disabled={busy}>
            Redrive
          </button>
        </form>
      ) : null}
      {said ? (
        <p class={said.error ? 'error-box' : 'muted'} role={said.error ? 'alert' : 'status'}>
          {said.text}
        </p>
      ) : null}
    </section>
  );
}
