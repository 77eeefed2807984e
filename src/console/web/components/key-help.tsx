import type { JSX } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';

const KEYS: [string, string][] = [
  ['g r', 'runs'],
  ['g e', 'recipes'],
  ['g s', 'service'],
  ['j / k', 'next / previous item'],
  ['Enter', 'open the focused item; on a step, show its line'],
  ['→ / Space', "show a loop step's iterations"],
  ['/', 'focus the filter'],
  ['?', 'show or hide these keys'],
  ['Esc', 'close, or leave a field'],
];

/** The list of keyboard keys, shown with `?`. */
export function KeyHelp(): JSX.Element | null {
  const [open, setOpen] = useState(false);
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const toggle = (): void => setOpen((o) => !o);
    document.addEventListener('toggle-key-help', toggle);
    return () => document.removeEventListener('toggle-key-help', toggle);
  }, []);
  useEffect(() => {
    const d = ref.current;
    if (!d) return;
    if (open && !d.open) d.showModal();
    if (!open && d.open) d.close();
  }, [open]);
  return (
    <dialog ref={ref} class="keys" aria-label="Keyboard keys" onClose={() => setOpen(false)}>
      <h2>Keys</h2>
      <dl>
        {KEYS.map(([k, what]) => (
          <div key={k}>
            <dt>
              <kbd>{k}</kbd>
            </dt>
            <dd>{what}</dd>
          </div>
        ))}
      </dl>
      <button type="button" onClick={() => setOpen(false)}>
        Close
      </button>
    </dialog>
  );
}
